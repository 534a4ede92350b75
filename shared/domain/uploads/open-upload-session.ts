import type { NotificationInbox } from '#shared/domain/notifications/ports.ts';
import type { OrganisationCounters, OrganisationStore } from '#shared/domain/organisation/ports.ts';
import { MAX_ENHANCED_FILES, type UploadSession } from '#shared/schemas/api/uploads.ts';
import { checkUploadAgainstPolicy, notifyThresholds, type DeclaredFile } from '#shared/domain/settings/enforce.ts';
import { policyFor } from '#shared/domain/settings/policies.ts';
import type { SettingsStore } from '#shared/domain/settings/ports.ts';
import { canManageDataset, requirePermission, type Caller } from '#shared/domain/auth/caller.ts';
import { changeStatus } from '#shared/domain/datasets/change-status.ts';
import { loadVisibleDataset } from '#shared/domain/datasets/load-dataset.ts';
import type { DatasetRepository } from '#shared/domain/datasets/ports.ts';
import type { AuditLog, Clock, IdGenerator } from '#shared/domain/ports.ts';
import { AccessDeniedError, InvalidStateError, ValidationError } from '#shared/domain/errors.ts';
import type { ObjectStore } from '#shared/domain/storage.ts';
import type { UploadRepository, UploadSessionRecord } from './ports.ts';
import { uploadKeys } from '#shared/domain/object-keys.ts';
import { getUploadSession, sessionView } from './get-upload-session.ts';
import { writeManifest } from './manifest.ts';
import { archiveLayout, archivePartBytes, archivePartCount, MAX_ARCHIVE_MEMBER_BYTES } from './study-archive.ts';
import { counterName, moveReportCounts } from '#shared/domain/reports/counters.ts';

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
  // A member of the study archive holds at most 8 GiB - 1 (docs/domain.md#upload-sessions); the policy is stricter.
  if (files.some((f) => f.sizeBytes > MAX_ARCHIVE_MEMBER_BYTES))
    throw new ValidationError('FILE_TOO_LARGE', { n: MAX_ARCHIVE_MEMBER_BYTES });
}

/**
 * Opens the upload of a CREATED dataset: the declared files, in order, are packed by the client into one ustar
 * archive sent as one multipart upload (docs/domain.md#upload-sessions); this stores the manifest (keys and sizes),
 * starts the multipart upload and records the session, and the dataset moves CREATED → UPLOADING. Three calls
 * whatever the file count. Calling it again for an UPLOADING dataset returns the open session (with the parts already
 * stored), so a client that lost its state can resume.
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
  const archiveBytes = archiveLayout(files.map((f) => f.sizeBytes)).totalBytes;
  const partBytes = archivePartBytes(archiveBytes);
  const archiveKey = uploadKeys.archive(caller.hospitalId, datasetId, sessionId);
  const manifest = { files: files.map((f) => ({ fileKey: f.fileKey, sizeBytes: f.sizeBytes })) };
  await writeManifest(deps.objects, caller.hospitalId, datasetId, sessionId, manifest);
  const session: UploadSessionRecord = {
    sessionId,
    hospitalId: caller.hospitalId,
    datasetId,
    createdByUserId: caller.userId,
    fileCount: files.length,
    totalBytes: files.reduce((sum, f) => sum + f.sizeBytes, 0),
    archiveKey,
    archiveBytes,
    partBytes,
    partCount: archivePartCount(archiveBytes, partBytes),
    multipartUploadId: await deps.objects.createMultipart('uploads', archiveKey),
    status: 'OPEN',
    createdAt: openedAt,
  };
  await deps.uploads.createSession(session);
  const uploading = await changeStatus(deps, {
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
  // The declared bytes are what the reports count as the study's bytes added (docs/domain.md#report-counters).
  if (deps.organisation)
    await moveReportCounts(deps.organisation, uploading, {
      [counterName.bytes]: uploading.sizeBytes - dataset.sizeBytes,
    });
  await notifyThresholds(caller.hospitalId, storageUsedBytes, storageUsedBytes + session.totalBytes, policy, deps);
  return sessionView(session, manifest, []);
}
