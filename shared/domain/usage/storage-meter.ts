import type { DatasetRecord, DatasetRepository } from '#shared/domain/datasets/ports.ts';
import type { OrganisationCounters } from '#shared/domain/organisation/ports.ts';
import { datasetPrefix } from '#shared/domain/object-keys.ts';
import { BUCKET_NAMES, type BucketName, type ObjectStore } from '#shared/domain/storage.ts';

/** Bytes a dataset holds in each bucket (docs/domain.md#usage-and-billing). */
export type BucketBytes = Record<BucketName, number>;

/**
 * Meters what a dataset holds, bucket by bucket (docs/domain.md#usage-and-billing): the objects under its prefix in
 * the uploads (raw files until de-identified), studies (the de-identified copy) and assets (volumes, meshes, tracts,
 * report, patients' marked downloads) buckets are summed, kept on the dataset, and the difference from what was
 * counted before is added to the hospital's, the team's and the summary's storage counters and to the day's meter.
 * Called where a run ends (complete or failed), so storage follows what the pipeline wrote and deleted.
 */
export async function meterDatasetStorage(
  deps: {
    objects: Pick<ObjectStore, 'list'>;
    datasets: Pick<DatasetRepository, 'update'>;
    organisation?: Pick<OrganisationCounters, 'add' | 'addSummary' | 'addUsage'>;
  },
  dataset: DatasetRecord,
  day: string,
): Promise<BucketBytes> {
  const prefix = datasetPrefix(dataset.hospitalId, dataset.id);
  const held = Object.fromEntries(
    await Promise.all(
      BUCKET_NAMES.map(
        async (bucket) => [bucket, (await deps.objects.list(bucket, prefix)).reduce((n, o) => n + o.size, 0)] as const,
      ),
    ),
  ) as BucketBytes;
  const total = BUCKET_NAMES.reduce((n, b) => n + held[b], 0);
  const delta = total - (dataset.storageCountedBytes ?? 0);
  await deps.datasets.update(dataset.hospitalId, dataset.id, { storageBytes: held, storageCountedBytes: total }, [
    dataset.status,
  ]);
  if (delta !== 0 && deps.organisation) {
    const counters = deps.organisation;
    await counters.add(dataset.hospitalId, { kind: 'hospital' }, { storageUsedBytes: delta });
    if (dataset.teamId)
      await counters.add(dataset.hospitalId, { kind: 'team', teamId: dataset.teamId }, { storageUsedBytes: delta });
    await counters.addSummary({ storageUsedBytes: delta });
    await counters.addUsage(dataset.hospitalId, 'hospital', day, { storageBytesAdded: delta });
    if (dataset.teamId) await counters.addUsage(dataset.hospitalId, dataset.teamId, day, { storageBytesAdded: delta });
  }
  return held;
}
