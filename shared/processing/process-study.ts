import {
  acquisitionFromDicom,
  classifySeries,
  isLowConfidence,
  type SeriesClassification,
} from '#shared/dicom/classify/index.ts';
import { convertToNifti, type NiftiOutput } from '#shared/dicom/convert.ts';
import { DEIDENTIFICATION_PROFILE, deidentifyDicom, type DeidentifySummary } from '#shared/dicom/deidentify/index.ts';
import { readSeriesFileMetadata } from '#shared/dicom/metadata.ts';
import { groupIntoSeries, type SeriesGroup } from '#shared/dicom/series.ts';
import { renderThumbnail } from '#shared/dicom/thumbnail.ts';
import { checkDicom } from '#shared/dicom/validate.ts';
import type { AnonymizationOptions, AssetType, ClassifiedType } from '#shared/schemas/api/datasets.ts';
import { readGeometry } from './nifti-io.ts';
import { buildReport, type ReportInput } from './report.ts';
import { buildSurface, MIN_SURFACE_SLICES, SurfaceSourceError } from './surface.ts';
import { buildTracts, InsufficientDirectionsError } from './tracts.ts';

/** Pipeline stages in order, as `iws process` and the bench time them. */
export const PROCESS_STAGES = ['anonymize', 'classify', 'convert', 'thumbnail', 'surface', 'tracts', 'report'] as const;
export type ProcessStage = (typeof PROCESS_STAGES)[number];

/** Anatomical types a surface is built from, best first. */
const SURFACE_SOURCES: readonly ClassifiedType[] = ['T1', 'T1_CONTRAST', 'T2', 'FLAIR'];
const TRACT_SOURCES: readonly ClassifiedType[] = ['DTI', 'DWI'];

export type ProcessAsset = {
  type: AssetType;
  label: string;
  fileName: string;
  mimeType: string;
  bytes: Uint8Array;
  seriesNumber?: number;
  metadata: Record<string, unknown>;
};

export type ProcessedSeries = {
  seriesNumber: number;
  seriesInstanceUID: string;
  description: string;
  modality: string;
  fileCount: number;
  classification: SeriesClassification & { lowConfidence: boolean };
  outputs: NiftiOutput[];
};

export type ProcessResult = {
  series: ProcessedSeries[];
  assets: ProcessAsset[];
  /** Per-file problems (never fatal): files that are not DICOM or fail de-identification. */
  skipped: { file: string; reason: string }[];
  /** Assets not built, and why (e.g. no anatomical series for a surface). */
  notes: string[];
  timings: { stage: ProcessStage; ms: number }[];
  deidentification: DeidentifySummary & { files: number };
};

export type ProcessOptions = {
  secret: string;
  hospitalId: string;
  anonymization: AnonymizationOptions;
  dataset: Omit<ReportInput['dataset'], 'studyDescription'> & { studyDescription?: string };
  /** Called as each stage ends (the bench prints these). */
  onStage?: (stage: ProcessStage, ms: number) => void;
};

const MIME = {
  nifti: 'application/gzip',
  json: 'application/json',
  text: 'text/plain',
  png: 'image/png',
  pdf: 'application/pdf',
  trk: 'application/octet-stream',
};

/**
 * The whole dataset pipeline on files in memory, without any server: anonymize → classify → convert → thumbnail →
 * surface → tracts → report, with the same engine functions the pipeline's task handlers use. Used by `iws process`
 * and bench/pipeline.ts.
 */
export async function processStudy(
  files: { name: string; bytes: Uint8Array }[],
  options: ProcessOptions,
): Promise<ProcessResult> {
  const timings: ProcessResult['timings'] = [];
  const timed = async <T>(stage: ProcessStage, work: () => T | Promise<T>): Promise<T> => {
    const started = performance.now();
    const value = await work();
    const ms = performance.now() - started;
    timings.push({ stage, ms });
    options.onStage?.(stage, ms);
    return value;
  };
  const skipped: ProcessResult['skipped'] = [];
  const notes: string[] = [];
  const assets: ProcessAsset[] = [];
  /** Per-series quality figures for the report, in pipeline order. */
  const quality: Record<string, string | number> = {};

  const deidentified = await timed('anonymize', async () => {
    const totals: DeidentifySummary & { files: number } = {
      removed: 0,
      emptied: 0,
      replaced: 0,
      uidsReplaced: 0,
      kept: 0,
      files: 0,
    };
    const out: { name: string; bytes: Uint8Array }[] = [];
    for (const file of files) {
      const check = checkDicom(file.bytes);
      if (!check.valid) {
        skipped.push({ file: file.name, reason: check.message });
        continue;
      }
      try {
        const result = await deidentifyDicom(file.bytes, {
          secret: options.secret,
          hospitalId: options.hospitalId,
          options: options.anonymization,
        });
        out.push({ name: file.name.replace(/\.gz$/i, ''), bytes: result.bytes });
        for (const key of ['removed', 'emptied', 'replaced', 'uidsReplaced', 'kept'] as const)
          totals[key] += result.summary[key];
        totals.files++;
      } catch (error) {
        skipped.push({ file: file.name, reason: error instanceof Error ? error.message : 'De-identification failed' });
      }
    }
    return { files: out, totals };
  });

  const { groups, studyDescription } = await timed('classify', () => {
    const metadata = deidentified.files.flatMap((file) => {
      const check = checkDicom(file.bytes);
      return check.valid ? [readSeriesFileMetadata(check.parsed, file.name, file.bytes.length)] : [];
    });
    const byName = new Map(deidentified.files.map((f) => [f.name, f.bytes]));
    const classified = groupIntoSeries(metadata).map((group) => {
      const classification = classifySeries(acquisitionFromDicom(group.files.map((f) => byName.get(f.fileName)!)));
      return { group, classification: { ...classification, lowConfidence: isLowConfidence(classification) } };
    });
    return { groups: classified, studyDescription: metadata[0]?.studyDescription ?? '' };
  });

  const series: ProcessedSeries[] = await timed('convert', async () => {
    const out: ProcessedSeries[] = [];
    const byName = new Map(deidentified.files.map((f) => [f.name, f.bytes]));
    for (const { group, classification } of groups) {
      const outputs = await convertToNifti(
        group.files.map((f) => ({ name: f.fileName, bytes: byName.get(f.fileName)! })),
      );
      if (outputs.length === 0) notes.push(`Series ${group.seriesNumber}: no NIfTI volume could be made`);
      out.push(describeSeries(group, classification, outputs));
      for (const output of outputs) {
        const geometry = await readGeometry(output.nifti);
        quality[`Series ${group.seriesNumber} volume`] =
          `${geometry.dims.slice(0, geometry.dims[3] > 1 ? 4 : 3).join(' x ')} voxels of ${geometry.voxelSize.map((v) => v.toFixed(2)).join(' x ')} mm`;
        assets.push({
          type: 'VOLUME',
          label: `${output.baseName} (NIfTI)`,
          fileName: `${output.baseName}.nii.gz`,
          mimeType: MIME.nifti,
          bytes: output.nifti,
          seriesNumber: group.seriesNumber,
          metadata: {
            dims: geometry.dims,
            voxelSize: geometry.voxelSize.map((v) => Number(v.toFixed(4))),
            format: 'nii.gz',
          },
        });
        assets.push({
          type: 'VOLUME',
          label: `${output.baseName} sidecar`,
          fileName: `${output.baseName}.json`,
          mimeType: MIME.json,
          bytes: new TextEncoder().encode(`${JSON.stringify(output.sidecar, null, 2)}\n`),
          seriesNumber: group.seriesNumber,
          metadata: {},
        });
        if (output.bval !== undefined && output.bvec !== undefined) {
          assets.push({
            type: 'VOLUME',
            label: `${output.baseName} b-values`,
            fileName: `${output.baseName}.bval`,
            mimeType: MIME.text,
            bytes: new TextEncoder().encode(output.bval),
            seriesNumber: group.seriesNumber,
            metadata: {},
          });
          assets.push({
            type: 'VOLUME',
            label: `${output.baseName} gradient directions`,
            fileName: `${output.baseName}.bvec`,
            mimeType: MIME.text,
            bytes: new TextEncoder().encode(output.bvec),
            seriesNumber: group.seriesNumber,
            metadata: {},
          });
        }
      }
    }
    return out;
  });

  const thumbnails = await timed('thumbnail', () =>
    series.flatMap((s) => {
      const first = s.outputs[0];
      if (!first) return [];
      const png = renderThumbnail(first.nifti);
      assets.push({
        type: 'THUMBNAIL',
        label: `Series ${s.seriesNumber} thumbnail`,
        fileName: `${first.baseName}_thumbnail.png`,
        mimeType: MIME.png,
        bytes: png,
        seriesNumber: s.seriesNumber,
        metadata: { size: 256 },
      });
      return [{ seriesNumber: s.seriesNumber, png }];
    }),
  );

  await timed('surface', async () => {
    const source = await pickSurfaceSource(series);
    if (!source) {
      notes.push('Surface: no 3D anatomical (T1, T2 or FLAIR) series');
      return;
    }
    let surface: Awaited<ReturnType<typeof buildSurface>>;
    try {
      surface = await buildSurface(source.output.nifti);
    } catch (error) {
      if (!(error instanceof SurfaceSourceError)) throw error;
      notes.push(`Surface: series ${source.series.seriesNumber}: ${error.message}`);
      return;
    }
    assets.push({
      type: 'SURFACE',
      label: `Series ${source.series.seriesNumber} head surface`,
      fileName: `${source.output.baseName}_surface.${surface.format}`,
      mimeType: surface.mimeType,
      bytes: surface.bytes,
      seriesNumber: source.series.seriesNumber,
      metadata: { ...surface.metadata, format: surface.format },
    });
    quality[`Series ${source.series.seriesNumber} surface`] =
      `${surface.metadata.vertices} vertices, ${surface.metadata.faces} faces, ${surface.metadata.closed ? 'closed' : 'open'}`;
  });

  await timed('tracts', async () => {
    const candidates = series.filter((s) => TRACT_SOURCES.includes(s.classification.classifiedType));
    if (candidates.length === 0) notes.push('Tracts: no diffusion series');
    for (const s of candidates) {
      const output = s.outputs.find((o) => o.bval !== undefined && o.bvec !== undefined);
      if (!output) {
        notes.push(`Tracts: series ${s.seriesNumber} has no b-values/gradients`);
        continue;
      }
      try {
        const tracts = await buildTracts({ nifti: output.nifti, bval: output.bval!, bvec: output.bvec! });
        const m = tracts.metadata;
        assets.push({
          type: 'TRACT',
          label: `Series ${s.seriesNumber} tractography`,
          fileName: `${output.baseName}_tracts.trk`,
          mimeType: MIME.trk,
          bytes: tracts.trk,
          seriesNumber: s.seriesNumber,
          metadata: { ...m, format: 'trk' },
        });
        assets.push({
          type: 'TRACT',
          label: `Series ${s.seriesNumber} FA`,
          fileName: `${output.baseName}_fa.nii.gz`,
          mimeType: MIME.nifti,
          bytes: tracts.fa,
          seriesNumber: s.seriesNumber,
          metadata: { map: 'FA', meanFa: m.meanFa },
        });
        assets.push({
          type: 'TRACT',
          label: `Series ${s.seriesNumber} colour FA`,
          fileName: `${output.baseName}_colorfa.nii.gz`,
          mimeType: MIME.nifti,
          bytes: tracts.colorFa,
          seriesNumber: s.seriesNumber,
          metadata: { map: 'colorFA' },
        });
        quality[`Series ${s.seriesNumber} diffusion directions`] = m.directions;
        quality[`Series ${s.seriesNumber} b-values`] = m.bValues.join(', ');
        quality[`Series ${s.seriesNumber} brain mask voxels`] = m.maskVoxels;
        quality[`Series ${s.seriesNumber} mean FA (brain)`] = m.meanFa;
        quality[`Series ${s.seriesNumber} mean MD (brain, 10^-3 mm2/s)`] = m.meanMd;
        quality[`Series ${s.seriesNumber} b0 SNR`] = m.snrB0;
        quality[`Series ${s.seriesNumber} streamlines`] = m.streamlines;
      } catch (error) {
        if (!(error instanceof InsufficientDirectionsError)) throw error;
        notes.push(`Tracts: series ${s.seriesNumber}: ${error.message}`);
      }
    }
  });

  await timed('report', async () => {
    const pdf = await buildReport({
      dataset: { ...options.dataset, studyDescription: options.dataset.studyDescription ?? studyDescription },
      deidentification: { profile: describeProfile(), options: { ...options.anonymization } },
      series: series.map((s) => ({
        seriesNumber: s.seriesNumber,
        description: s.description,
        modality: s.modality,
        sliceCount: s.fileCount,
        classifiedType: s.classification.classifiedType,
        confidence: s.classification.confidence,
        source: 'AI',
        bids: s.classification.bids,
      })),
      thumbnails,
      quality: {
        'Files received': files.length,
        'Files de-identified': deidentified.totals.files,
        'Files skipped': skipped.length,
        'Attributes removed': deidentified.totals.removed,
        'Attributes emptied': deidentified.totals.emptied,
        'Attributes replaced': deidentified.totals.replaced,
        'UIDs replaced': deidentified.totals.uidsReplaced,
        'Series flagged for review (low confidence)': series.filter((s) => s.classification.lowConfidence).length,
        ...quality,
      },
    });
    assets.push({
      type: 'REPORT',
      label: 'Dataset report',
      fileName: 'report.pdf',
      mimeType: MIME.pdf,
      bytes: pdf,
      metadata: { pages: countPages(pdf), series: series.length },
    });
  });

  return { series, assets, skipped, notes, timings, deidentification: deidentified.totals };
}

function describeSeries(
  group: SeriesGroup,
  classification: ProcessedSeries['classification'],
  outputs: NiftiOutput[],
): ProcessedSeries {
  return {
    seriesNumber: group.seriesNumber,
    seriesInstanceUID: group.seriesInstanceUID,
    description: group.seriesDescription,
    modality: group.modality,
    fileCount: group.fileCount,
    classification,
    outputs,
  };
}

async function pickSurfaceSource(
  series: ProcessedSeries[],
): Promise<{ series: ProcessedSeries; output: NiftiOutput } | undefined> {
  for (const type of SURFACE_SOURCES) {
    for (const s of series.filter((x) => x.classification.classifiedType === type)) {
      for (const output of s.outputs) {
        const { dims } = await readGeometry(output.nifti);
        if (dims[3] === 1 && Math.min(dims[0], dims[1], dims[2]) >= MIN_SURFACE_SLICES) return { series: s, output };
      }
    }
  }
  return undefined;
}

function describeProfile(): string {
  return `${DEIDENTIFICATION_PROFILE.standard} (${DEIDENTIFICATION_PROFILE.edition}) Basic Profile, Clean Descriptors, Retain Safe Private`;
}

function countPages(pdf: Uint8Array): number {
  const text = new TextDecoder('latin1').decode(pdf);
  return (text.match(/\/Type \/Page\b/g) ?? []).length;
}
