import type { Dataset } from '#shared/schemas/api/datasets.ts';
import type { Caller } from '#shared/domain/auth/caller.ts';
import type { DatasetRepository, PipelineStarter } from '#shared/domain/datasets/ports.ts';
import type { AuditLog, IdGenerator } from '#shared/domain/ports.ts';
import { toDataset } from '#shared/domain/datasets/view.ts';
import { InvalidStateError, ValidationError } from '#shared/domain/errors.ts';
import type { ObjectStore, StoredPart } from '#shared/domain/storage.ts';
import { loadVisibleSession } from './get-upload-session.ts';
import type { UploadRepository, UploadSessionRecord } from './ports.ts';
import type { OrganisationCounters } from '#shared/domain/organisation/ports.ts';

/**
 * Every part of the archive stored → the multipart upload is completed, the dataset pipeline starts (the dataset is
 * already UPLOADING) and the session closes.
 * The run id is stored before the start, so a client retrying after a lost answer starts the same execution
 * name again, which Step Functions treats as the same run.
 */
export async function completeUpload(
  sessionId: string,
  caller: Caller,
  deps: {
    datasets: DatasetRepository;
    uploads: UploadRepository;
    audit: AuditLog;
    pipeline: PipelineStarter;
    ids: IdGenerator;
    organisation: OrganisationCounters;
    objects: ObjectStore;
  },
): Promise<Dataset> {
  const session = await loadVisibleSession(sessionId, caller, deps);
  const dataset = (await deps.datasets.get(caller.hospitalId, session.datasetId))!;
  if (session.status === 'COMPLETE') return toDataset(dataset);
  if (session.status !== 'OPEN' || dataset.status !== 'UPLOADING') throw new InvalidStateError();
  if (!dataset.lastRunId) await completeArchive(session, deps.objects);
  const runId = dataset.lastRunId ?? deps.ids.newId();
  // What is now stored counts towards the hospital's and the team's storage, once (docs/domain.md#counters).
  const storedBytes = session.totalBytes;
  const updated = dataset.lastRunId
    ? dataset
    : await deps.datasets.update(
        caller.hospitalId,
        dataset.id,
        { lastRunId: runId, storageCountedBytes: storedBytes },
        ['UPLOADING'],
      );
  if (!dataset.lastRunId) {
    await deps.organisation.add(caller.hospitalId, { kind: 'hospital' }, { storageUsedBytes: storedBytes });
    await deps.organisation.addSummary({ storageUsedBytes: storedBytes });
    if (dataset.teamId)
      await deps.organisation.add(
        caller.hospitalId,
        { kind: 'team', teamId: dataset.teamId },
        { storageUsedBytes: storedBytes },
      );
  }
  await deps.pipeline.start({ hospitalId: caller.hospitalId, datasetId: dataset.id, runId });
  await deps.uploads.setSessionStatus(caller.hospitalId, sessionId, 'COMPLETE');
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    datasetId: dataset.id,
    action: 'UPLOAD_COMPLETED',
    actorUserId: caller.userId,
    actorName: `${caller.firstName} ${caller.lastName}`,
    details: { sessionId, fileCount: session.fileCount, runId },
  });
  return toDataset(updated);
}

/**
 * Completes the archive's multipart upload. Part URLs do not bind a length: the parts the store holds must be exactly
 * 1..partCount, each partBytes long but the last, which ends the archive at its declared length; otherwise a client
 * could store more (or less) than the limits it was checked against. Completed with the ETags just listed, never a
 * client's. A retry after the archive was completed finds no upload and no parts, and the archive already there.
 */
async function completeArchive(session: UploadSessionRecord, objects: ObjectStore): Promise<void> {
  const listed = await objects.listParts('uploads', session.archiveKey, session.multipartUploadId);
  if (listed.length === 0) {
    const stored = await objects.list('uploads', session.archiveKey);
    if (stored.some((o) => o.key === session.archiveKey && o.size === session.archiveBytes)) return;
  }
  const held = new Map(listed.map((p) => [p.partNumber, p]));
  const expected = (partNumber: number) =>
    partNumber < session.partCount
      ? session.partBytes
      : session.archiveBytes - session.partBytes * (session.partCount - 1);
  const parts: StoredPart[] = [];
  for (let partNumber = 1; partNumber <= session.partCount; partNumber++) {
    const part = held.get(partNumber);
    if (part?.size !== expected(partNumber)) throw new InvalidStateError('UPLOAD_INCOMPLETE');
    parts.push({ partNumber, etag: part.etag });
  }
  try {
    await objects.completeMultipart('uploads', session.archiveKey, session.multipartUploadId, parts);
  } catch (error) {
    if (error instanceof Error && /InvalidPart|NoSuchUpload|EntityTooSmall/.test(error.name))
      throw new ValidationError('UPLOAD_INCOMPLETE');
    throw error;
  }
}
