import { buildSurface, SurfaceSourceError, type SurfaceResult } from '#shared/processing/surface.ts';
import type { AssetRecord } from '#shared/domain/datasets/ports.ts';
import { PIPELINE_ACTOR } from '#shared/domain/datasets/ports.ts';
import { assetKeys } from '#shared/domain/object-keys.ts';
import { loadDataset, type PipelineDeps, type StageInput } from './deps.ts';

/** Anatomical labels in order of preference for the head surface. */
const ANATOMICAL_PREFERENCE = ['T1', 'T1_CONTRAST', 'T2', 'FLAIR', 'SWI', 'OTHER'] as const;

/** The best anatomical VOLUME of a dataset: T1 first, then by label preference, then the largest volume. */
export function pickAnatomicalVolume(assets: AssetRecord[]): AssetRecord | undefined {
  const rank = (a: AssetRecord) => {
    const type = String(a.metadata.classifiedType ?? 'OTHER');
    const i = (ANATOMICAL_PREFERENCE as readonly string[]).indexOf(type);
    return i === -1 ? Number.POSITIVE_INFINITY : i;
  };
  return assets
    .filter(
      (a) =>
        a.type === 'VOLUME' &&
        a.seriesId !== undefined &&
        !a.metadata.bvalKey &&
        !a.metadata.derivedFrom &&
        Number.isFinite(rank(a)),
    )
    .sort((a, b) => rank(a) - rank(b) || b.byteSize - a.byteSize)[0];
}

/**
 * SURFACE asset for the best anatomical volume. A dataset without a volume that can give one (none anatomical, or
 * too thin, e.g. a single slice) completes without a surface: the skip and its reason are audited.
 */
export async function buildDatasetSurface(input: StageInput, deps: PipelineDeps): Promise<void> {
  await loadDataset(deps, input);
  const { hospitalId, datasetId } = input;
  const source = pickAnatomicalVolume(await deps.datasets.listAssets(hospitalId, datasetId));
  if (!source) {
    await deps.audit.record({
      hospitalId,
      datasetId,
      action: 'SURFACE_SKIPPED',
      ...PIPELINE_ACTOR,
      details: { runId: input.runId, reason: 'no anatomical volume' },
    });
    return;
  }
  let surface: SurfaceResult;
  try {
    surface = await buildSurface(await deps.objects.get('assets', source.objectKey));
  } catch (error) {
    if (!(error instanceof SurfaceSourceError)) throw error;
    await deps.audit.record({
      hospitalId,
      datasetId,
      action: 'SURFACE_SKIPPED',
      ...PIPELINE_ACTOR,
      details: { runId: input.runId, reason: 'volume cannot give a surface', volumeAssetId: source.id },
    });
    return;
  }
  const seriesId = source.seriesId!;
  const key = assetKeys.surface(hospitalId, datasetId, seriesId, surface.format);
  await deps.objects.put('assets', key, surface.bytes, surface.mimeType);
  await deps.datasets.putAsset({
    id: `${seriesId}-surface`,
    datasetId,
    hospitalId,
    seriesId,
    type: 'SURFACE',
    label: 'Head surface',
    byteSize: surface.bytes.byteLength,
    mimeType: surface.mimeType,
    metadata: { ...surface.metadata, format: surface.format, volumeAssetId: source.id },
    createdAt: deps.clock.now(),
    bucket: 'assets',
    objectKey: key,
  });
}
