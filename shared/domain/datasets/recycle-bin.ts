import type { Dataset, RecycleBinItem } from '#shared/schemas/api/datasets.ts';
import { AccessDeniedError, DomainError, NotFoundError } from '#shared/domain/errors.ts';
import type { Caller } from '#shared/domain/auth/caller.ts';
import type { AuditLog, Clock, PageTokens } from '#shared/domain/ports.ts';
import { actorOf, countLive, purgeDataset, type Actor, type DeleteDatasetDeps } from './delete-dataset.ts';
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

/** Bin entries read per page of the purge step. */
export const PURGE_PAGE = 25;
/** Pages one run of the purge step takes at most; what is left waits for the next run. */
export const PURGE_MAX_PAGES = 20;

export type PurgeReport = { purged: string[]; held: number; failed: number; more: boolean };

/**
 * The purge step of the retention job (docs/domain.md#recycle-bin): removes for good the hospital's datasets whose
 * time in the bin is over, a page at a time, soonest first. It keeps no state of its own: what it purged has left the
 * bin, so a run stopped half-way (or run twice) starts again from the bin's head and finishes it. A dataset put under
 * legal hold is never purged; one that fails is left for the next run and skipped within this one.
 */
export async function purgeRecycleBin(
  hospitalId: string,
  actor: Actor,
  deps: Omit<DeleteDatasetDeps, 'clock'> & { clock: Clock },
): Promise<PurgeReport> {
  const report: PurgeReport = { purged: [], held: 0, failed: 0, more: false };
  const purgeBy = deps.clock.now();
  let startKey: Record<string, string> | undefined;
  for (let pages = 0; pages < PURGE_MAX_PAGES; pages++) {
    const page = await deps.datasets.listBin({ hospitalId, limit: PURGE_PAGE, purgeBy, startKey });
    for (const dataset of page.items) {
      if (dataset.legalHold) {
        report.held += 1;
        continue;
      }
      try {
        await purgeDataset(dataset, actor, deps, { reason: dataset.deletionReason });
        report.purged.push(dataset.id);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        report.failed += 1;
      }
    }
    // Purged entries left the bin; what stays (held, failed) is stepped over with the page's key.
    startKey = page.lastKey;
    if (!startKey) return report;
  }
  report.more = true;
  return report;
}
