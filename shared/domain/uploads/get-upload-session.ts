import type { UploadSession } from '#shared/schemas/api/uploads.ts';
import { canManageDataset, canSeeDataset, requirePermission, type Caller } from '#shared/domain/auth/caller.ts';
import type { DatasetRepository } from '#shared/domain/datasets/ports.ts';
import { AccessDeniedError, NotFoundError } from '#shared/domain/errors.ts';
import type { ObjectStore } from '#shared/domain/storage.ts';
import { readManifest } from './manifest.ts';
import type { UploadManifest, UploadRepository, UploadSessionRecord } from './ports.ts';

/**
 * A session of the caller's hospital whose dataset the caller may see; otherwise UPLOAD_NOT_FOUND. Only those who may
 * open it (the dataset's owner, their lead, an admin) may read or write it: a teammate who can see the dataset gets
 * ACCESS_DENIED, not part URLs into someone else's upload.
 */
export async function loadVisibleSession(
  sessionId: string,
  caller: Caller,
  deps: { datasets: DatasetRepository; uploads: UploadRepository },
): Promise<UploadSessionRecord> {
  requirePermission(caller, 'UPLOAD_DICOM');
  const session = await deps.uploads.getSession(caller.hospitalId, sessionId);
  if (!session) throw new NotFoundError('UPLOAD_NOT_FOUND');
  const dataset = await deps.datasets.get(caller.hospitalId, session.datasetId);
  if (!dataset || !canSeeDataset(caller, dataset)) throw new NotFoundError('UPLOAD_NOT_FOUND');
  if (!canManageDataset(caller, dataset)) throw new AccessDeniedError();
  return session;
}

/** The API's view of a session: its archive's geometry, the parts already stored and the declared files in order. */
export function sessionView(
  session: UploadSessionRecord,
  manifest: UploadManifest,
  completedParts: number[],
): UploadSession {
  return {
    sessionId: session.sessionId,
    datasetId: session.datasetId,
    status: session.status,
    archiveBytes: session.archiveBytes,
    partBytes: session.partBytes,
    partCount: session.partCount,
    completedParts,
    files: manifest.files.map((f, fileIndex) => ({ fileIndex, fileKey: f.fileKey, sizeBytes: f.sizeBytes })),
    createdAt: session.createdAt,
  };
}

/** The session with the parts of its archive S3 already holds (ListParts), so a client can resume from them. */
export async function getUploadSession(
  sessionId: string,
  caller: Caller,
  deps: { datasets: DatasetRepository; uploads: UploadRepository; objects: ObjectStore },
): Promise<UploadSession> {
  const session = await loadVisibleSession(sessionId, caller, deps);
  const [manifest, parts] = await Promise.all([
    readManifest(deps.objects, caller.hospitalId, session.datasetId, sessionId),
    session.status === 'OPEN'
      ? deps.objects.listParts('uploads', session.archiveKey, session.multipartUploadId)
      : Promise.resolve([]),
  ]);
  return sessionView(
    session,
    manifest,
    parts.map((p) => p.partNumber).sort((a, b) => a - b),
  );
}
