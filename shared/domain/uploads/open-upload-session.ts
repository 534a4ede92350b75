import type { NotificationInbox } from '#shared/domain/notifications/ports.ts';
import type { OrganisationCounters, OrganisationStore } from '#shared/domain/organisation/ports.ts';
import { MAX_ENHANCED_FILES, UPLOAD_PART_BYTES, type UploadSession } from '#shared/schemas/api/uploads.ts';
import { checkUploadAgainstPolicy, notifyThresholds, type DeclaredFile } from '#shared/domain/policies/enforce.ts';
import { policyFor } from '#shared/domain/policies/policies.ts';
import type { SettingsStore } from '#shared/domain/policies/ports.ts';
import { canManageDataset, requirePermission, type Caller } from '#shared/domain/access/caller.ts';
import { changeStatus } from '#shared/domain/datasets/change-status.ts';
import { loadVisibleDataset } from '#shared/domain/datasets/load-dataset.ts';
import type { AuditLog, Clock, DatasetRepository, IdGenerator } from '#shared/domain/datasets/ports.ts';
import { AccessDeniedError, InvalidStateError, ValidationError } from '#shared/domain/errors.ts';
import type { ObjectStore } from '#shared/domain/storage.ts';
import { uploadFilesExpiry, type UploadFileRecord, type UploadRepository } from './ports.ts';
import { uploadKeys } from '#shared/domain/object-keys.ts';
import { getUploadSession } from './get-upload-session.ts';

export type UploadDeps = {
  datasets: DatasetRepository;
  uploads: UploadRepository;
  objects: ObjectStore;
  audit: AuditLog;
  clock: Clock;
  ids: IdGenerator;
  settings: SettingsStore;
  /** The hospital admins told of a crossed storage threshold, and their inboxes (docs/domain.md#notifications). */
  organisation?: Pick<OrganisationStore, 'listUsers'> & OrganisationCounters;
  notifications?: NotificationInbox;
};

/** Upload limits (docs/domain.md#uploads), enforced on the server as well as in the uploader. */
export function checkUploadLimits(files: { sizeBytes: number }[]): void {
  if (files.length > MAX_ENHANCED_FILES) throw new ValidationError('TOO_MANY_FILES', { n: MAX_ENHANCED_FILES });
}

/**
 * Opens the upload of a CREATED dataset: one multipart upload per file under `<hospitalId>/<datasetId>/raw/<n>`
 * (started when the client first asks for the file's part URLs), and the dataset moves CREATED → UPLOADING. Calling it again for an UPLOADING dataset returns the open session
 * (with the parts already stored), so a client that lost its state can resume.
 */
export async function openUploadSession(
  datasetId: string,
  files: (DeclaredFile & { fileKey: string })[],
  caller: Caller,
  deps: UploadDeps,
): Promise<UploadSession> {
  const dataset = await loadVisibleDataset(caller, datasetId, deps);
  requirePermission(caller, 'UPLOAD_DICOM');
  if (!canManageDataset(caller, dataset)) throw new AccessDeniedError();
  checkUploadLimits(files);
  if (dataset.status === 'UPLOADING' && dataset.uploadSessionId) {
    const existing = await deps.uploads.getSession(caller.hospitalId, dataset.uploadSessionId);
    if (existing?.status === 'OPEN') return getUploadSession(existing.sessionId, caller, deps);
  }
  if (dataset.status !== 'CREATED') throw new InvalidStateError();
  // The policy in force for the dataset's team: file size, formats and the storage cap, before any byte is sent.
  const [policy, storageUsedBytes] = await Promise.all([
    policyFor(caller.hospitalId, dataset.teamId, deps),
    deps.settings.storageUsedBytes(caller.hospitalId),
  ]);
  checkUploadAgainstPolicy(files, policy, storageUsedBytes);

  const sessionId = deps.ids.newId();
  const openedAt = deps.clock.now();
  const records: UploadFileRecord[] = files.map((file, fileIndex) => ({
    sessionId,
    hospitalId: caller.hospitalId,
    fileIndex,
    fileKey: file.fileKey,
    sizeBytes: file.sizeBytes,
    partCount: Math.max(1, Math.ceil(file.sizeBytes / UPLOAD_PART_BYTES)),
    objectKey: uploadKeys.file(caller.hospitalId, datasetId, fileIndex),
    status: 'PENDING',
    expiresAtEpoch: uploadFilesExpiry(openedAt),
  }));
  const session = {
    sessionId,
    hospitalId: caller.hospitalId,
    datasetId,
    createdByUserId: caller.userId,
    partBytes: UPLOAD_PART_BYTES,
    fileCount: files.length,
    totalBytes: files.reduce((sum, f) => sum + f.sizeBytes, 0),
    status: 'OPEN' as const,
    createdAt: openedAt,
  };
  await deps.uploads.createSession(session, records);
  await changeStatus(deps, {
    hospitalId: caller.hospitalId,
    datasetId,
    from: ['CREATED'],
    to: 'UPLOADING',
    actorUserId: caller.userId,
    actorName: `${caller.firstName} ${caller.lastName}`,
    fields: {
      uploadSessionId: sessionId,
      fileCount: files.length,
      sizeBytes: session.totalBytes,
      updatedAt: session.createdAt,
    },
    details: { sessionId, fileCount: files.length, totalBytes: session.totalBytes },
  });
  await notifyThresholds(caller.hospitalId, storageUsedBytes, storageUsedBytes + session.totalBytes, policy, deps);
  return {
    sessionId,
    datasetId,
    partBytes: UPLOAD_PART_BYTES,
    status: 'OPEN',
    createdAt: session.createdAt,
    files: records.map((f) => ({
      fileIndex: f.fileIndex,
      fileKey: f.fileKey,
      sizeBytes: f.sizeBytes,
      partCount: f.partCount,
      completedParts: [],
      status: f.status,
    })),
  };
}
