import type { ProcessedAsset } from '#shared/schemas/api/datasets.ts';
import { canSeeDataset, holdsSharePermission, type Caller } from '#shared/domain/auth/caller.ts';
import { datasetPrefix } from '#shared/domain/object-keys.ts';
import type { ObjectStore } from '#shared/domain/storage.ts';
import { auditedRead } from '#shared/domain/audit/record-read.ts';
import type { AssetRecord, DatasetRecord, DatasetRepository } from './ports.ts';
import type { AuditLog, Clock } from '#shared/domain/ports.ts';
import { loadReadableDataset, type ShareGrants } from './load-dataset.ts';
import { releasedAssets } from './held-series.ts';
import { toAsset } from './view.ts';

/** Presigned asset URLs live 15 minutes: long enough to load a viewer, short enough not to be a share link. */
export const ASSET_URL_TTL_SECONDS = 15 * 60;

/**
 * Only an object of this dataset's own prefix in the assets bucket is ever presigned: a record that points elsewhere (a
 * pipeline bug, a tampered item) must not hand out a URL into another dataset or hospital.
 */
function isOwnAsset(dataset: DatasetRecord, asset: AssetRecord): boolean {
  const prefix = datasetPrefix(dataset.hospitalId, dataset.id);
  return (
    asset.bucket === 'assets' &&
    asset.hospitalId === dataset.hospitalId &&
    asset.datasetId === dataset.id &&
    asset.objectKey.startsWith(prefix) &&
    !asset.objectKey.split('/').some((segment) => segment === '..' || segment === '.')
  );
}

/** What the viewer loads (volumes, meshes, tracts, thumbnails): a view-only share gets URLs for these alone. */
export const VIEWER_ASSET_TYPES: ReadonlySet<string> = new Set(['VOLUME', 'SURFACE', 'TRACT', 'THUMBNAIL']);

/**
 * Whether the caller gets a URL for this asset (docs/domain.md#share-permissions): what the viewer loads for anyone who
 * may read the dataset; downloadable originals (the report and any other file) only with `download`.
 */
export function mayPresign(dataset: DatasetRecord, asset: Pick<AssetRecord, 'type'>): boolean {
  return VIEWER_ASSET_TYPES.has(asset.type) || holdsSharePermission(dataset, 'download');
}

/**
 * The assets the caller may see, with a URL where they may load it; a held series' assets are not among them
 * (docs/pipeline.md#burned-in-text). The dataset view, the assets route and team shares all come here.
 */
export async function presignedAssets(
  caller: Caller,
  dataset: DatasetRecord,
  deps: { datasets: DatasetRepository; objects: ObjectStore },
): Promise<ProcessedAsset[]> {
  const assets = await releasedAssets(deps.datasets, dataset.hospitalId, dataset.id);
  const mayRead = canSeeDataset(caller, dataset);
  return Promise.all(
    assets
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
      .map(async (asset) =>
        toAsset(
          asset,
          mayRead && isOwnAsset(dataset, asset) && mayPresign(dataset, asset)
            ? await deps.objects.presignGet(asset.bucket, asset.objectKey, ASSET_URL_TTL_SECONDS)
            : undefined,
        ),
      ),
  );
}

/** The dataset's assets with presigned URLs; issuing them is audited (ASSET_URLS_ISSUED), as is a refusal. */
export async function listAssets(
  datasetId: string,
  caller: Caller,
  deps: { datasets: DatasetRepository; objects: ObjectStore; audit: AuditLog; clock: Clock; shares?: ShareGrants },
): Promise<{ items: ProcessedAsset[] }> {
  return auditedRead(
    caller,
    deps,
    {
      action: 'ASSET_URLS_ISSUED',
      datasetId,
      details: (r) => ({ assetUrlsIssued: r.items.filter((a) => a.url).length }),
    },
    async () => {
      const dataset = await loadReadableDataset(caller, datasetId, deps);
      return { items: await presignedAssets(caller, dataset, deps) };
    },
  );
}
