import { requirePermission, type Caller } from '#shared/domain/access/caller.ts';
import { InvalidStateError } from '#shared/domain/errors.ts';
import { datasetPrefix } from '#shared/domain/object-keys.ts';
import type { ObjectStore } from '#shared/domain/storage.ts';
import type { UploadRepository } from '#shared/domain/uploads/ports.ts';
import type { OrganisationCounters } from '#shared/domain/organisation/ports.ts';
import { loadVisibleDataset } from './load-dataset.ts';
import type { AuditLog, DatasetRepository } from './ports.ts';

/** Statuses in which a pipeline stage is writing objects: deleting then would race it. */
const PROCESSING_STAGES: readonly string[] = ['ANONYMIZING', 'CLASSIFYING', 'PROCESSING'];

/**
 * Deletes a dataset: its objects in every bucket (raw uploads, de-identified DICOM, assets) and all of its items.
 * The audit trail stays (it lives in the hospital's audit partition) and gains a DATASET_DELETED event.
 */
export async function deleteDataset(
  datasetId: string,
  caller: Caller,
  deps: {
    datasets: DatasetRepository;
    audit: AuditLog;
    objects: ObjectStore;
    uploads: UploadRepository;
    organisation: OrganisationCounters;
  },
): Promise<void> {
  const dataset = await loadVisibleDataset(caller, datasetId, deps);
  requirePermission(caller, 'DELETE_DATA');
  if (PROCESSING_STAGES.includes(dataset.status)) throw new InvalidStateError();
  if (dataset.uploadSessionId) {
    // An UPLOADING dataset whose upload is finished has a pipeline run about to write: wait for it to end.
    const session = await deps.uploads.getSession(caller.hospitalId, dataset.uploadSessionId);
    if (dataset.status === 'UPLOADING' && session?.status === 'COMPLETE') throw new InvalidStateError();
    const files = await deps.uploads.listFiles(caller.hospitalId, dataset.uploadSessionId);
    await Promise.all(
      files
        .filter((f) => f.status === 'PENDING' && f.multipartUploadId)
        .map((f) => deps.objects.abortMultipart('uploads', f.objectKey, f.multipartUploadId!)),
    );
  }
  const prefix = datasetPrefix(caller.hospitalId, datasetId);
  const removed = await Promise.all([
    deps.objects.deletePrefix('uploads', prefix),
    deps.objects.deletePrefix('studies', prefix),
    deps.objects.deletePrefix('assets', prefix),
  ]);
  const items = await deps.datasets.deleteAll(caller.hospitalId, datasetId, dataset.uploadSessionId);
  const counted = { datasetCount: -1, storageUsedBytes: -(dataset.storageCountedBytes ?? 0) };
  await deps.organisation.add(caller.hospitalId, { kind: 'hospital' }, counted);
  if (dataset.teamId) await deps.organisation.add(caller.hospitalId, { kind: 'team', teamId: dataset.teamId }, counted);
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    datasetId,
    action: 'DATASET_DELETED',
    actorUserId: caller.userId,
    actorName: `${caller.firstName} ${caller.lastName}`,
    details: { objectsDeleted: removed.reduce((a, b) => a + b, 0), itemsDeleted: items },
  });
}
