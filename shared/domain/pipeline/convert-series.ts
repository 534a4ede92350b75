import { convertToNifti } from '#shared/dicom/convert.ts';
import { renderThumbnail } from '#shared/dicom/thumbnail.ts';
import type { AssetRecord, SeriesRecord } from '#shared/domain/datasets/ports.ts';
import { PIPELINE_ACTOR } from '#shared/domain/datasets/ports.ts';
import { assetPrefix, enterStage, readSeriesFiles, type PipelineDeps, type StageInput } from './deps.ts';

/** Metadata keys of a VOLUME asset that point at its companion objects in the assets bucket. */
export type VolumeMetadata = {
  sidecarKey: string;
  bvalKey?: string;
  bvecKey?: string;
  dims?: number[];
  classifiedType?: string;
  seriesInstanceUID: string;
};

const safeName = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 120) || 'series';

/**
 * PROCESSING, first part: every selected series → NIfTI-1 (.nii.gz) with its JSON sidecar (+ .bval/.bvec) as a
 * VOLUME asset, and a PNG THUMBNAIL. Asset ids derive from the series and output index, so a retry overwrites
 * the same items and objects instead of adding copies.
 */
export async function convertDatasetSeries(input: StageInput, deps: PipelineDeps): Promise<void> {
  await enterStage(deps, input, 'CLASSIFYING', 'PROCESSING');
  const { hospitalId, datasetId } = input;
  const series = (await deps.datasets.listSeries(hospitalId, datasetId)).filter((s) => s.selected);
  let volumes = 0;
  for (const s of series) volumes += await convertOne(s, input, deps);
  await deps.audit.record({
    hospitalId,
    datasetId,
    action: 'SERIES_CONVERTED',
    ...PIPELINE_ACTOR,
    details: { runId: input.runId, series: series.length, volumes },
  });
}

async function convertOne(series: SeriesRecord, input: StageInput, deps: PipelineDeps): Promise<number> {
  const { hospitalId, datasetId } = input;
  const files = await readSeriesFiles(deps, hospitalId, datasetId, series.seriesInstanceUID);
  const outputs = await convertToNifti(files);
  const now = deps.clock.now();
  for (const [index, output] of outputs.entries()) {
    const base = `${assetPrefix(hospitalId, datasetId)}${series.id}/${safeName(output.baseName)}`;
    const sidecarBytes = new TextEncoder().encode(JSON.stringify(output.sidecar, null, 2));
    await deps.objects.put('assets', `${base}.nii.gz`, output.nifti, 'application/gzip');
    await deps.objects.put('assets', `${base}.json`, sidecarBytes, 'application/json');
    const metadata: VolumeMetadata = { sidecarKey: `${base}.json`, seriesInstanceUID: series.seriesInstanceUID };
    if (series.classification) metadata.classifiedType = series.classification.classifiedType;
    if (output.bval && output.bvec) {
      await deps.objects.put('assets', `${base}.bval`, new TextEncoder().encode(output.bval), 'text/plain');
      await deps.objects.put('assets', `${base}.bvec`, new TextEncoder().encode(output.bvec), 'text/plain');
      metadata.bvalKey = `${base}.bval`;
      metadata.bvecKey = `${base}.bvec`;
    }
    const volume: AssetRecord = {
      id: `${series.id}-volume-${index}`,
      datasetId,
      hospitalId,
      seriesId: series.id,
      type: 'VOLUME',
      label: `${series.description} (NIfTI)`,
      byteSize: output.nifti.byteLength,
      mimeType: 'application/gzip',
      metadata: { ...metadata, baseName: output.baseName },
      createdAt: now,
      bucket: 'assets',
      objectKey: `${base}.nii.gz`,
    };
    await deps.datasets.putAsset(volume);
    if (index === 0) {
      const png = renderThumbnail(output.nifti);
      await deps.objects.put('assets', `${base}.png`, png, 'image/png');
      await deps.datasets.putAsset({
        id: `${series.id}-thumbnail`,
        datasetId,
        hospitalId,
        seriesId: series.id,
        type: 'THUMBNAIL',
        label: `${series.description} thumbnail`,
        byteSize: png.byteLength,
        mimeType: 'image/png',
        metadata: { volumeAssetId: volume.id },
        createdAt: now,
        bucket: 'assets',
        objectKey: `${base}.png`,
      });
    }
  }
  return outputs.length;
}
