import { pipelineDeltas } from '#shared/domain/dashboards/counters.ts';
import { requirePermission, type Caller } from '#shared/domain/auth/caller.ts';
import { InvalidStateError } from '#shared/domain/errors.ts';
import { datasetPrefix } from '#shared/domain/object-keys.ts';
import type { ObjectStore } from '#shared/domain/storage.ts';
import type { UploadRepository } from '#shared/domain/uploads/ports.ts';
import type { OrganisationCounters } from '#shared/domain/organisation/ports.ts';
import { loadVisibleDataset } from './load-dataset.ts';
import type { DatasetRecord, DatasetRepository } from './ports.ts';
import type { AuditLog } from '#shared/domain/ports.ts';

/** Statuses in which a pipeline stage is writing objects: deleting then would race it. */
export const PROCESSING_STAGES: readonly string[] = ['ANONYMIZING', 'CLASSIFYING', 'PROCESSING'];

/**
 * Deletes a dataset: its objects in every bucket (raw uploads, de-identified DICOM, assets) and all of its items.
 * The audit trail stays (it lives in the hospital's audit partition) and gains a DATASET_DELETED event.
 */
export type DeleteDatasetDeps = {
  datasets: DatasetRepository;
  audit: AuditLog;
  objects: ObjectStore;
  uploads: UploadRepository;
  organisation: OrganisationCounters;
};

export async function deleteDataset(datasetId: string, caller: Caller, deps: DeleteDatasetDeps): Promise<void> {
  const dataset = await loadVisibleDataset(caller, datasetId, deps);
  requirePermission(caller, 'DELETE_DATA');
  await removeDataset(
    dataset,
    { actorUserId: caller.userId, actorName: `${caller.firstName} ${caller.lastName}` },
    'DATASET_DELETED',
    deps,
  );
}

/**
 * Removes a dataset the caller (a user, or the retention job: docs/pipeline.md#data-retention) may remove: refused
 * while a stage writes its objects, otherwise its objects in every bucket, its items, and one audit event.
 */
export async function removeDataset(
  dataset: DatasetRecord,
  actor: { actorUserId: string; actorName: string },
  action: 'DATASET_DELETED' | 'DATASET_RETENTION_EXPIRED',
  deps: DeleteDatasetDeps,
  details: Record<string, unknown> = {},
): Promise<void> {
  const { hospitalId, id: datasetId } = dataset;
  if (PROCESSING_STAGES.includes(dataset.status)) throw new InvalidStateError();
  if (dataset.uploadSessionId) {
    // An UPLOADING dataset whose upload is finished has a pipeline run about to write: wait for it to end.
    const session = await deps.uploads.getSession(hospitalId, dataset.uploadSessionId);
    if (dataset.status === 'UPLOADING' && session?.status === 'COMPLETE') throw new InvalidStateError();
    // An unfinished archive upload holds parts no listing shows: abort it, or they stay (and are billed).
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
  const counted = {
    datasetCount: -1,
    storageUsedBytes: -(dataset.storageCountedBytes ?? 0),
    ...pipelineDeltas(dataset.status, undefined),
  };
  await deps.organisation.add(hospitalId, { kind: 'hospital' }, counted);
  await deps.organisation.addSummary({ storageUsedBytes: counted.storageUsedBytes });
  if (dataset.teamId) await deps.organisation.add(hospitalId, { kind: 'team', teamId: dataset.teamId }, counted);
  await deps.audit.record({
    hospitalId,
    datasetId,
    action,
    ...actor,
    details: { ...details, objectsDeleted: removed.reduce((a, b) => a + b, 0), itemsDeleted: items },
  });
}
