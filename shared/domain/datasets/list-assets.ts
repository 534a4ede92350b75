import type { ProcessedAsset } from '../../schemas/api/datasets.ts';
import { canSeeDataset, type Caller } from '../access/caller.ts';
import type { ObjectStore } from '../storage.ts';
import type { DatasetRecord, DatasetRepository } from './ports.ts';
import { loadVisibleDataset } from './load-dataset.ts';
import { toAsset } from './view.ts';

/** Presigned asset URLs live 15 minutes: long enough to load a viewer, short enough not to be a share link. */
export const ASSET_URL_TTL_SECONDS = 15 * 60;

export async function presignedAssets(
  caller: Caller,
  dataset: DatasetRecord,
  deps: { datasets: DatasetRepository; objects: ObjectStore },
): Promise<ProcessedAsset[]> {
  const assets = await deps.datasets.listAssets(dataset.hospitalId, dataset.id);
  const mayRead = canSeeDataset(caller, dataset);
  return Promise.all(
    assets
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
      .map(async (asset) => toAsset(asset, mayRead ? await deps.objects.presignGet(asset.bucket, asset.objectKey, ASSET_URL_TTL_SECONDS) : undefined)),
  );
}

export async function listAssets(
  datasetId: string,
  caller: Caller,
  deps: { datasets: DatasetRepository; objects: ObjectStore },
): Promise<{ items: ProcessedAsset[] }> {
  const dataset = await loadVisibleDataset(caller, datasetId, deps);
  return { items: await presignedAssets(caller, dataset, deps) };
}
