import { complianceDeltas, pipelineDeltas } from '#shared/domain/dashboards/counters.ts';
import { AccessDeniedError } from '#shared/domain/errors.ts';
import { canManageDataset, requirePermission, type Caller } from '#shared/domain/auth/caller.ts';
import { InvalidStateError } from '#shared/domain/errors.ts';
import { datasetPrefix } from '#shared/domain/object-keys.ts';
import type { ObjectStore } from '#shared/domain/storage.ts';
import type { UploadRepository } from '#shared/domain/uploads/ports.ts';
import type { OrganisationCounters } from '#shared/domain/organisation/ports.ts';
import { loadVisibleDataset } from './load-dataset.ts';
import type { DatasetRecord, DatasetRepository } from './ports.ts';
import { moveReportCounts, reportContribution } from '#shared/domain/reports/counters.ts';
import type { AuditLog, Clock } from '#shared/domain/ports.ts';

/** Statuses in which a pipeline stage is writing objects: deleting then would race it. */
export const PROCESSING_STAGES: readonly string[] = ['ANONYMIZING', 'CLASSIFYING', 'PROCESSING'];

/** How long a deleted dataset lies in the recycle bin before the purge removes it (docs/domain.md#recycle-bin). */
export const RECYCLE_BIN_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Why a dataset deleted by hand was deleted, when the request gave no reason. */
export const NO_REASON_GIVEN = 'not given';

export type Actor = { actorUserId: string; actorName: string };

export type DeleteDatasetDeps = {
  datasets: DatasetRepository;
  audit: AuditLog;
  objects: ObjectStore;
  uploads: UploadRepository;
  organisation: OrganisationCounters;
  clock: Clock;
};

export const actorOf = (caller: Caller): Actor => ({
  actorUserId: caller.userId,
  actorName: `${caller.firstName} ${caller.lastName}`,
});

/**
 * Deletes a dataset by hand: it goes to the recycle bin (docs/domain.md#recycle-bin), restorable by a hospital admin
 * for RECYCLE_BIN_DAYS. DELETE_DATA covers one's own datasets; a team lead deletes the team's, a hospital admin the
 * hospital's (docs/roles-and-permissions.md#dataset-management). A dataset under legal hold is refused (LEGAL_HOLD).
 */
export async function deleteDataset(
  datasetId: string,
  input: { reason?: string },
  caller: Caller,
  deps: DeleteDatasetDeps,
): Promise<void> {
  const dataset = await loadVisibleDataset(caller, datasetId, deps);
  requirePermission(caller, 'DELETE_DATA');
  if (!canManageDataset(caller, dataset)) throw new AccessDeniedError();
  await moveToRecycleBin(dataset, actorOf(caller), 'DATASET_DELETED', input.reason ?? NO_REASON_GIVEN, deps);
}

/** Refuses removing a dataset a pipeline stage is writing, or whose finished upload is about to start a run. */
async function assertRemovable(dataset: DatasetRecord, deps: Pick<DeleteDatasetDeps, 'uploads'>): Promise<void> {
  if (dataset.legalHold) throw new InvalidStateError('LEGAL_HOLD');
  if (PROCESSING_STAGES.includes(dataset.status)) throw new InvalidStateError();
  if (dataset.uploadSessionId && dataset.status === 'UPLOADING') {
    const session = await deps.uploads.getSession(dataset.hospitalId, dataset.uploadSessionId);
    if (session?.status === 'COMPLETE') throw new InvalidStateError();
  }
}

/**
 * Moves a live dataset to the recycle bin (by hand, or by the retention job: docs/pipeline.md#data-retention): it
 * leaves every list, search, share and DICOMweb answer at once, its objects and items stay until the purge. It leaves
 * the dataset and pipeline counters (it is in no list); its bytes stay counted until the purge, since they are still
 * stored (docs/domain.md#counters). One audit event: who, why and what (ids and dates, never patient data).
 */
export async function moveToRecycleBin(
  dataset: DatasetRecord,
  actor: Actor,
  action: 'DATASET_DELETED' | 'DATASET_RETENTION_EXPIRED',
  reason: string,
  deps: DeleteDatasetDeps,
  details: Record<string, unknown> = {},
): Promise<DatasetRecord> {
  await assertRemovable(dataset, deps);
  const deletedAt = deps.clock.now();
  const purgeAfter = new Date(Date.parse(deletedAt) + RECYCLE_BIN_DAYS * DAY_MS).toISOString();
  const binned = await deps.datasets.moveToBin(dataset, {
    deletedAt,
    purgeAfter,
    deletedByUserId: actor.actorUserId,
    deletedByName: actor.actorName,
    deletionReason: reason,
  });
  await countLive(dataset, -1, deps);
  await deps.audit.record({
    hospitalId: dataset.hospitalId,
    datasetId: dataset.id,
    action,
    ...actor,
    details: { ...details, reason, status: dataset.status, purgeAfter },
  });
  return binned;
}

/**
 * The counters a live dataset holds beyond its bytes: the dataset count, its pipeline group and, once de-identified,
 * its share of the compliance counters (docs/domain.md#counters), and its counts on the report items
 * (docs/domain.md#report-counters).
 */
export async function countLive(
  dataset: DatasetRecord,
  sign: 1 | -1,
  deps: Pick<DeleteDatasetDeps, 'organisation' | 'datasets'>,
): Promise<void> {
  const deltas = {
    datasetCount: sign,
    ...(sign < 0 ? pipelineDeltas(dataset.status, undefined) : pipelineDeltas(undefined, dataset.status)),
  };
  const series = dataset.deidentifiedAt ? await deps.datasets.listSeries(dataset.hospitalId, dataset.id) : [];
  await deps.organisation.add(
    dataset.hospitalId,
    { kind: 'hospital' },
    {
      ...deltas,
      ...complianceDeltas(dataset, series, sign),
    },
  );
  if (dataset.teamId) await deps.organisation.add(dataset.hospitalId, { kind: 'team', teamId: dataset.teamId }, deltas);
  await moveReportCounts(deps.organisation, dataset, reportContribution(dataset, sign));
}

/**
 * Removes a dataset of the recycle bin for good: an unfinished archive upload aborted, its objects in every bucket,
 * all of its items, its bytes given back to the storage counters, and one audit event. Each step may be repeated: a
 * purge stopped half-way finds the dataset still in the bin and finishes it (the dataset item goes last).
 */
export async function purgeDataset(
  dataset: DatasetRecord,
  actor: Actor,
  deps: Omit<DeleteDatasetDeps, 'clock'>,
  details: Record<string, unknown> = {},
): Promise<void> {
  const { hospitalId, id: datasetId } = dataset;
  if (dataset.legalHold) throw new InvalidStateError('LEGAL_HOLD');
  if (dataset.uploadSessionId) {
    // An unfinished archive upload holds parts no listing shows: abort it, or they stay (and are billed).
    const session = await deps.uploads.getSession(hospitalId, dataset.uploadSessionId);
    if (session?.status === 'OPEN' && session.multipartUploadId)
      await deps.objects.abortMultipart('uploads', session.archiveKey, session.multipartUploadId);
  }
  const prefix = datasetPrefix(hospitalId, datasetId);
  const removed = await Promise.all([
    deps.objects.deletePrefix('uploads', prefix),
    deps.objects.deletePrefix('studies', prefix),
    deps.objects.deletePrefix('assets', prefix),
  ]);
  const items = await deps.datasets.deleteAll(hospitalId, datasetId, dataset.uploadSessionId);
  const storageUsedBytes = -(dataset.storageCountedBytes ?? 0);
  await deps.organisation.add(hospitalId, { kind: 'hospital' }, { storageUsedBytes });
  await deps.organisation.addSummary({ storageUsedBytes });
  if (dataset.teamId)
    await deps.organisation.add(hospitalId, { kind: 'team', teamId: dataset.teamId }, { storageUsedBytes });
  await deps.audit.record({
    hospitalId,
    datasetId,
    action: 'DATASET_PURGED',
    ...actor,
    details: {
      ...details,
      deletedAt: dataset.deletedAt,
      objectsDeleted: removed.reduce((a, b) => a + b, 0),
      itemsDeleted: items,
    },
  });
}
