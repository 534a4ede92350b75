import { buildSurface, SurfaceSourceError, type SurfaceResult } from '#shared/processing/surface.ts';
import type { AssetRecord } from '#shared/domain/datasets/ports.ts';
import { PIPELINE_ACTOR } from '#shared/domain/datasets/ports.ts';
import { assetKeys } from '#shared/domain/object-keys.ts';
import { loadDataset, type PipelineDeps, type StageInput } from './deps.ts';

/** Anatomical labels in order of preference for the head surface. */
const ANATOMICAL_PREFERENCE = ['T1', 'T1_CONTRAST', 'T2', 'FLAIR', 'SWI', 'OTHER'] as const;

/** Anatomical VOLUMEs of a dataset, best first: T1 first, then by label preference, then the largest volume. */
export function anatomicalVolumes(assets: AssetRecord[]): AssetRecord[] {
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
    .sort((a, b) => rank(a) - rank(b) || b.byteSize - a.byteSize);
}

export function pickAnatomicalVolume(assets: AssetRecord[]): AssetRecord | undefined {
  return anatomicalVolumes(assets)[0];
}

/**
 * SURFACE asset from the best anatomical volume that can give one: a volume too thin (e.g. a single slice) or without
 * a body standing out is passed over for the next. A dataset without such a volume completes without a surface: the
 * skip and its reason are audited.
 */
export async function buildDatasetSurface(input: StageInput, deps: PipelineDeps): Promise<void> {
  await loadDataset(deps, input);
  const { hospitalId, datasetId } = input;
  const candidates = anatomicalVolumes(await deps.datasets.listAssets(hospitalId, datasetId));
  let source: AssetRecord | undefined;
  let surface: SurfaceResult | undefined;
  for (const candidate of candidates) {
    try {
      surface = await buildSurface(await deps.objects.get('assets', candidate.objectKey));
      source = candidate;
      break;
    } catch (error) {
      if (!(error instanceof SurfaceSourceError)) throw error;
    }
  }
  if (!source || !surface) {
    await deps.audit.record({
      hospitalId,
      datasetId,
      action: 'SURFACE_SKIPPED',
      ...PIPELINE_ACTOR,
      details: {
        runId: input.runId,
        reason: candidates.length === 0 ? 'no anatomical volume' : 'no volume can give a surface',
        volumeAssetIds: candidates.map((c) => c.id),
      },
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
