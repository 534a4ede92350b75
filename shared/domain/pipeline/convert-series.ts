import { convertToNifti } from '#shared/dicom/convert.ts';
import { renderThumbnail } from '#shared/dicom/thumbnail.ts';
import type { AssetRecord, SeriesRecord } from '#shared/domain/datasets/ports.ts';
import { PIPELINE_ACTOR } from '#shared/domain/datasets/ports.ts';
import { assetKeys } from '#shared/domain/object-keys.ts';
import { isHeldForBurnedInText } from '#shared/schemas/api/datasets.ts';
import {
  enterStage,
  loadSeries,
  readSeriesFiles,
  type PipelineDeps,
  type SeriesStageInput,
  type StageInput,
} from './deps.ts';

/** Metadata keys of a VOLUME asset that point at its companion objects in the assets bucket. */
export type VolumeMetadata = {
  sidecarKey: string;
  bvalKey?: string;
  bvecKey?: string;
  dims?: number[];
  classifiedType?: string;
  seriesInstanceUID: string;
  /** Position of this volume among its series' dcm2niix outputs; derived maps are keyed by it. */
  volumeIndex: number;
};

/** What a person reads for an asset: the series number and the kind of file, never the series description. */
export const seriesLabel = (series: Pick<SeriesRecord, 'seriesNumber'>) => `Series ${series.seriesNumber}`;

/**
 * PROCESSING, one series (a branch of the Map state, docs/pipeline.md#series-in-parallel): a selected series →
 * NIfTI-1 (.nii.gz) with its JSON sidecar (+ .bval/.bvec) as VOLUME assets, and a PNG THUMBNAIL. A series held for
 * burned-in text, or not selected, is left out until it is released. Asset ids and keys derive from the series id and
 * output index, so a retry overwrites the same items and objects instead of adding copies.
 */
export async function convertOneSeries(input: SeriesStageInput, deps: PipelineDeps): Promise<void> {
  await enterStage(deps, input, 'CLASSIFYING', 'PROCESSING');
  const { hospitalId, datasetId } = input;
  const series = await loadSeries(deps, input);
  if (!series.selected) return;
  const held = isHeldForBurnedInText(series);
  const volumes = held ? 0 : await convertOne(series, input, deps);
  await deps.audit.record({
    hospitalId,
    datasetId,
    action: 'SERIES_CONVERTED',
    ...PIPELINE_ACTOR,
    details: { runId: input.runId, seriesId: series.id, series: held ? 0 : 1, volumes, held: held ? 1 : 0 },
  });
}

async function convertOne(series: SeriesRecord, input: StageInput, deps: PipelineDeps): Promise<number> {
  const { hospitalId, datasetId } = input;
  const files = await readSeriesFiles(deps, hospitalId, datasetId, series.seriesInstanceUID);
  const outputs = await convertToNifti(files);
  const now = deps.clock.now();
  const assets: AssetRecord[] = [];
  for (const [index, output] of outputs.entries()) {
    const key = (part: 'nifti' | 'sidecar' | 'bval' | 'bvec') =>
      assetKeys.volume(hospitalId, datasetId, series.id, index, part);
    const sidecarBytes = new TextEncoder().encode(JSON.stringify(output.sidecar, null, 2));
    const puts = [
      deps.objects.put('assets', key('nifti'), output.nifti, 'application/gzip'),
      deps.objects.put('assets', key('sidecar'), sidecarBytes, 'application/json'),
    ];
    const metadata: VolumeMetadata = {
      sidecarKey: key('sidecar'),
      seriesInstanceUID: series.seriesInstanceUID,
      volumeIndex: index,
    };
    if (series.classification) metadata.classifiedType = series.classification.classifiedType;
    if (output.bval && output.bvec) {
      puts.push(
        deps.objects.put('assets', key('bval'), new TextEncoder().encode(output.bval), 'text/plain'),
        deps.objects.put('assets', key('bvec'), new TextEncoder().encode(output.bvec), 'text/plain'),
      );
      metadata.bvalKey = key('bval');
      metadata.bvecKey = key('bvec');
    }
    const volume: AssetRecord = {
      id: `${series.id}-volume-${index}`,
      datasetId,
      hospitalId,
      seriesId: series.id,
      type: 'VOLUME',
      label:
        outputs.length > 1 ? `${seriesLabel(series)} volume ${index + 1} (NIfTI)` : `${seriesLabel(series)} (NIfTI)`,
      byteSize: output.nifti.byteLength,
      mimeType: 'application/gzip',
      metadata,
      createdAt: now,
      bucket: 'assets',
      objectKey: key('nifti'),
    };
    assets.push(volume);
    if (index === 0) {
      const png = renderThumbnail(output.nifti);
      const thumbnailKey = assetKeys.thumbnail(hospitalId, datasetId, series.id);
      puts.push(deps.objects.put('assets', thumbnailKey, png, 'image/png'));
      assets.push({
        id: `${series.id}-thumbnail`,
        datasetId,
        hospitalId,
        seriesId: series.id,
        type: 'THUMBNAIL',
        label: `${seriesLabel(series)} thumbnail`,
        byteSize: png.byteLength,
        mimeType: 'image/png',
        metadata: { volumeAssetId: volume.id },
        createdAt: now,
        bucket: 'assets',
        objectKey: thumbnailKey,
      });
    }
    // The objects of one output go up together; their items follow in batches once every object is stored.
    await Promise.all(puts);
  }
  await deps.datasets.putAssets(assets);
  return outputs.length;
}
