import type { Dataset, RecycleBinItem } from '#shared/schemas/api/datasets.ts';
import { AccessDeniedError, NotFoundError } from '#shared/domain/errors.ts';
import type { Caller } from '#shared/domain/auth/caller.ts';
import type { AuditLog, PageTokens } from '#shared/domain/ports.ts';
import { actorOf, countLive, type DeleteDatasetDeps } from './delete-dataset.ts';
import type { DatasetRecord, DatasetRepository } from './ports.ts';
import { toDataset } from './view.ts';

/** The recycle bin is the hospital admin's (docs/roles-and-permissions.md#dataset-management). */
function requireHospitalAdmin(caller: Caller): void {
  if (caller.role !== 'HOSPITAL_ADMIN') throw new AccessDeniedError();
}

export function toRecycleBinItem(record: DatasetRecord): RecycleBinItem {
  return {
    ...toDataset(record),
    deletedAt: record.deletedAt!,
    purgeAfter: record.purgeAfter!,
    deletedByUserId: record.deletedByUserId!,
    deletedByName: record.deletedByName!,
    deletionReason: record.deletionReason!,
  };
}

/** One page of the hospital's recycle bin, the soonest purged first. */
export async function listRecycleBin(
  input: { limit: number; nextToken?: string },
  caller: Caller,
  deps: { datasets: DatasetRepository; pageTokens: PageTokens },
): Promise<{ items: RecycleBinItem[]; nextToken: string | null }> {
  requireHospitalAdmin(caller);
  const scope = JSON.stringify(['recycle-bin', caller.hospitalId]);
  const startKey = input.nextToken ? await deps.pageTokens.open(scope, input.nextToken) : undefined;
  const page = await deps.datasets.listBin({ hospitalId: caller.hospitalId, limit: input.limit, startKey });
  return {
    items: page.items.map(toRecycleBinItem),
    nextToken: page.lastKey ? await deps.pageTokens.seal(scope, page.lastKey) : null,
  };
}

/** Brings a dataset of the bin back into its lists, as it was; audited as DATASET_RESTORED. */
export async function restoreDataset(
  datasetId: string,
  caller: Caller,
  deps: { datasets: DatasetRepository; audit: AuditLog; organisation: DeleteDatasetDeps['organisation'] },
): Promise<Dataset> {
  requireHospitalAdmin(caller);
  const binned = await deps.datasets.getInBin(caller.hospitalId, datasetId);
  if (!binned) throw new NotFoundError('DATASET_NOT_FOUND');
  const restored = await deps.datasets.restoreFromBin(caller.hospitalId, datasetId);
  await countLive(restored, 1, deps);
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    datasetId,
    action: 'DATASET_RESTORED',
    ...actorOf(caller),
    details: { deletedAt: binned.deletedAt, deletedByUserId: binned.deletedByUserId, status: restored.status },
  });
  return toDataset(restored);
}
