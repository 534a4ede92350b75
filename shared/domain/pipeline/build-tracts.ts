import { countDirections, parseBval, parseBvec } from '#shared/dicom/classify/diffusion.ts';
import { buildTracts, MIN_TENSOR_DIRECTIONS } from '#shared/processing/tracts.ts';
import type { AssetRecord } from '#shared/domain/datasets/ports.ts';
import { PIPELINE_ACTOR } from '#shared/domain/datasets/ports.ts';
import { assetKeys, type DerivedPart } from '#shared/domain/object-keys.ts';
import { loadDataset, type PipelineDeps, type SeriesStageInput } from './deps.ts';

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** Diffusion volumes (DTI or DWI, with bval/bvec) that have enough directions for a tensor fit. */
export async function diffusionCandidates(
  assets: AssetRecord[],
  deps: PipelineDeps,
): Promise<{ asset: AssetRecord; bval: string; bvec: string }[]> {
  const out: { asset: AssetRecord; bval: string; bvec: string }[] = [];
  for (const asset of assets) {
    const type = asset.metadata.classifiedType;
    if (
      asset.type !== 'VOLUME' ||
      asset.seriesId === undefined ||
      !asset.metadata.bvalKey ||
      !asset.metadata.bvecKey ||
      (type !== 'DTI' && type !== 'DWI')
    )
      continue;
    const bval = decode(await deps.objects.get('assets', String(asset.metadata.bvalKey)));
    const bvec = decode(await deps.objects.get('assets', String(asset.metadata.bvecKey)));
    if (countDirections(parseBvec(bvec), parseBval(bval)) >= MIN_TENSOR_DIRECTIONS) out.push({ asset, bval, bvec });
  }
  return out;
}

/**
 * One series (a branch of the Map state, docs/pipeline.md#series-in-parallel): TRACT (.trk) plus FA and colour-FA
 * VOLUME assets for each of its DTI/DWI volumes with ≥ 6 directions. A series with none has nothing to do here and
 * audits nothing.
 */
export async function buildSeriesTracts(input: SeriesStageInput, deps: PipelineDeps): Promise<void> {
  await loadDataset(deps, input);
  const { hospitalId, datasetId } = input;
  const assets = (await deps.datasets.listAssets(hospitalId, datasetId)).filter((a) => a.seriesId === input.seriesId);
  const candidates = await diffusionCandidates(assets, deps);
  if (candidates.length === 0) return;
  for (const { asset, bval, bvec } of candidates) {
    const result = await buildTracts({ nifti: await deps.objects.get('assets', asset.objectKey), bval, bvec });
    const key = (part: DerivedPart) =>
      assetKeys.derived(hospitalId, datasetId, asset.seriesId!, Number(asset.metadata.volumeIndex ?? 0), part);
    const now = deps.clock.now();
    const common = { datasetId, hospitalId, seriesId: asset.seriesId, createdAt: now, bucket: 'assets' as const };
    const outputs: [string, Uint8Array, Omit<AssetRecord, keyof typeof common | 'byteSize' | 'objectKey'>][] = [
      [
        key('fa'),
        result.fa,
        {
          id: `${asset.id}-fa`,
          type: 'VOLUME',
          label: 'FA map',
          mimeType: 'application/gzip',
          metadata: { derivedFrom: asset.id, map: 'FA', meanFa: result.metadata.meanFa },
        },
      ],
      [
        key('colorfa'),
        result.colorFa,
        {
          id: `${asset.id}-colorfa`,
          type: 'VOLUME',
          label: 'Colour FA map',
          mimeType: 'application/gzip',
          metadata: { derivedFrom: asset.id, map: 'colorFA' },
        },
      ],
      [
        key('tracts'),
        result.trk,
        {
          id: `${asset.id}-tracts`,
          type: 'TRACT',
          label: 'Tractography',
          mimeType: 'application/octet-stream',
          metadata: { ...result.metadata, volumeAssetId: asset.id },
        },
      ],
    ];
    await Promise.all(outputs.map(([key, bytes, fields]) => deps.objects.put('assets', key, bytes, fields.mimeType)));
    await deps.datasets.putAssets(
      outputs.map(([key, bytes, fields]) => ({ ...common, ...fields, byteSize: bytes.byteLength, objectKey: key })),
    );
  }
  await deps.audit.record({
    hospitalId,
    datasetId,
    action: 'TRACTS_BUILT',
    ...PIPELINE_ACTOR,
    details: { runId: input.runId, seriesId: input.seriesId, series: 1, volumes: candidates.length },
  });
}
