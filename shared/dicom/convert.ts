import { runDcm2niix } from './convert-dcm2niix.ts';
import { gzipBytes } from './convert-gzip.ts';
import { gunzipIfNeeded, parseDicom } from './parse.ts';
import { TAG, parserKey } from './tags.ts';

/** One NIfTI volume as dcm2niix writes it: `baseName` is dcm2niix's `%s_%d` (series number, description). */
export type NiftiOutput = {
  baseName: string;
  /** NIfTI-1, gzip-compressed (.nii.gz). */
  nifti: Uint8Array;
  /** dcm2niix's BIDS sidecar (anonymized: `-ba y`, its default). */
  sidecar: Record<string, unknown>;
  /** FSL-format b-values, one line, as dcm2niix writes them (diffusion series only). */
  bval?: string;
  /** FSL-format gradient directions, three lines (diffusion series only). */
  bvec?: string;
  seriesInstanceUID?: string;
  seriesNumber?: number;
};

export type ConvertInputFile = { name: string; bytes: Uint8Array };

export type ConvertOptions = {
  /** Called with each series' conversion time (ms); used by the bench and the pipeline's metrics. */
  onSeriesConverted?: (info: {
    seriesInstanceUID?: string;
    fileCount: number;
    outputs: number;
    exitCode: number;
    ms: number;
  }) => void;
};

/** dcm2niix arguments: the field's defaults, with the name pattern fixed and compression done here (see gzipBytes). */
const DCM2NIIX_ARGS = ['-z', 'n', '-b', 'y', '-ba', 'y', '-f', '%s_%d'];

type SeriesBatch = { seriesInstanceUID?: string; seriesNumber?: number; files: ConvertInputFile[] };

/**
 * Converts DICOM files to NIfTI + BIDS sidecar (+ bval/bvec), one dcm2niix run per series so every output is tied to
 * its SeriesInstanceUID. Geometry, scaling and sidecars are dcm2niix's own. Files that do not parse as DICOM are left
 * out (validation reports them earlier); gzip-compressed DICOM is unpacked first. A series may give several outputs
 * (echoes, phase/magnitude); derived images that dcm2niix writes without a sidecar (e.g. the isotropic ADC image Philips
 * appends to a DTI series) are dropped: it would disturb diffusion processing, and it can be recomputed.
 * @example const [t1] = await convertToNifti(files.map((f) => ({ name: f.path, bytes: f.bytes })));
 */
export async function convertToNifti(files: ConvertInputFile[], options: ConvertOptions = {}): Promise<NiftiOutput[]> {
  const results: NiftiOutput[] = [];
  for (const batch of groupBySeries(files)) {
    const started = performance.now();
    const run = await runDcm2niix(batch.files, DCM2NIIX_ARGS);
    const outputs = await collectOutputs(run.outputs, batch);
    results.push(...outputs);
    options.onSeriesConverted?.({
      seriesInstanceUID: batch.seriesInstanceUID,
      fileCount: batch.files.length,
      outputs: outputs.length,
      exitCode: run.exitCode,
      ms: performance.now() - started,
    });
  }
  return results;
}

function groupBySeries(files: ConvertInputFile[]): SeriesBatch[] {
  const batches = new Map<string, SeriesBatch>();
  for (const file of files) {
    let seriesInstanceUID: string | undefined;
    let seriesNumber: number | undefined;
    try {
      const { dataSet } = parseDicom(file.bytes);
      seriesInstanceUID = dataSet.string(parserKey(TAG.SeriesInstanceUID))?.replace(/\0/g, '').trim() || undefined;
      const number = Number.parseInt(dataSet.string(parserKey(TAG.SeriesNumber)) ?? '', 10);
      seriesNumber = Number.isFinite(number) ? number : undefined;
    } catch {
      continue;
    }
    // dcm2niix also splits on SeriesNumber (the same UID can carry several numbers, e.g. re-exports), so key on both.
    const key = `${seriesInstanceUID ?? ''}|${seriesNumber ?? ''}`;
    let batch = batches.get(key);
    if (!batch) {
      batch = { seriesInstanceUID, seriesNumber, files: [] };
      batches.set(key, batch);
    }
    batch.files.push({ name: file.name, bytes: gunzipIfNeeded(file.bytes) });
  }
  return [...batches.values()].sort(
    (a, b) => (a.seriesNumber ?? Number.MAX_SAFE_INTEGER) - (b.seriesNumber ?? Number.MAX_SAFE_INTEGER),
  );
}

async function collectOutputs(files: Map<string, Uint8Array>, batch: SeriesBatch): Promise<NiftiOutput[]> {
  const text = new TextDecoder();
  const outputs: NiftiOutput[] = [];
  const baseNames = [...files.keys()]
    .filter((name) => name.endsWith('.nii'))
    .map((name) => name.slice(0, -'.nii'.length))
    .sort();
  for (const baseName of baseNames) {
    const sidecarBytes = files.get(`${baseName}.json`);
    if (!sidecarBytes) continue;
    const bval = files.get(`${baseName}.bval`);
    const bvec = files.get(`${baseName}.bvec`);
    const sidecar = JSON.parse(text.decode(sidecarBytes)) as Record<string, unknown>;
    const seriesNumber = typeof sidecar.SeriesNumber === 'number' ? sidecar.SeriesNumber : batch.seriesNumber;
    outputs.push({
      baseName,
      nifti: await gzipBytes(files.get(`${baseName}.nii`)!),
      sidecar,
      ...(bval ? { bval: text.decode(bval) } : {}),
      ...(bvec ? { bvec: text.decode(bvec) } : {}),
      ...(batch.seriesInstanceUID ? { seriesInstanceUID: batch.seriesInstanceUID } : {}),
      ...(seriesNumber !== undefined ? { seriesNumber } : {}),
    });
  }
  return outputs;
}
