import {
  assertVisible,
  canSeeDataset,
  isGuestKeptOut,
  requirePermission,
  type Caller,
} from '#shared/domain/auth/caller.ts';
import { TEAM_SHARE_PERMISSIONS } from '#shared/schemas/api/shares.ts';
import { NotFoundError } from '#shared/domain/errors.ts';
import type { ShareStore } from '#shared/domain/shares/ports.ts';
import type { DatasetRecord, DatasetRepository } from './ports.ts';

/** Loads a dataset the caller may see, or throws DATASET_NOT_FOUND (also for other tenants and other teams). */
export async function loadVisibleDataset(
  caller: Caller,
  datasetId: string,
  deps: { datasets: DatasetRepository },
): Promise<DatasetRecord> {
  requirePermission(caller, 'VIEW_DATASETS');
  return assertVisible(caller, await deps.datasets.get(caller.hospitalId, datasetId));
}

/** The lookup of team shares a read may go through (docs/domain.md#shares). */
export type ShareGrants = Pick<ShareStore, 'findGrant'>;

/**
 * For reads only (view, series, assets, history): a dataset the caller sees by hospital or team, or through a team
 * share to them or to their team (one GetItem each, keyed by hospital, recipient and dataset). A dataset read through a
 * share carries `sharedWithYou`, so canManageDataset refuses changes to it.
 */
export async function loadReadableDataset(
  caller: Caller,
  datasetId: string,
  deps: { datasets: DatasetRepository; shares?: ShareGrants },
): Promise<DatasetRecord> {
  requirePermission(caller, 'VIEW_DATASETS');
  const dataset = await deps.datasets.get(caller.hospitalId, datasetId);
  if (dataset && canSeeDataset(caller, dataset)) return dataset;
  if (dataset && deps.shares && dataset.hospitalId === caller.hospitalId && !isGuestKeptOut(caller)) {
    // A grant to the caller and one to their team add up (docs/domain.md#share-permissions).
    const grants = [
      await deps.shares.findGrant(caller.hospitalId, { type: 'USER', id: caller.userId }, datasetId),
      caller.teamId
        ? await deps.shares.findGrant(caller.hospitalId, { type: 'TEAM', id: caller.teamId }, datasetId)
        : undefined,
    ].filter((g) => g !== undefined);
    if (grants.length > 0) {
      const permissions = TEAM_SHARE_PERMISSIONS.filter((p) => grants.some((g) => g.permissions.includes(p)));
      return { ...dataset, sharedWithYou: permissions };
    }
  }
  throw new NotFoundError('DATASET_NOT_FOUND');
}
