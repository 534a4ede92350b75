import type { UploadSession } from '#shared/schemas/api/uploads.ts';
import { canManageDataset, canSeeDataset, requirePermission, type Caller } from '#shared/domain/access/caller.ts';
import type { DatasetRepository } from '#shared/domain/datasets/ports.ts';
import { AccessDeniedError, NotFoundError } from '#shared/domain/errors.ts';
import type { ObjectStore } from '#shared/domain/storage.ts';
import type { UploadRepository, UploadSessionRecord } from './ports.ts';

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

/** The session with, for each unfinished file, the parts S3 already holds (ListParts), so a client can resume. */
export async function getUploadSession(
  sessionId: string,
  caller: Caller,
  deps: { datasets: DatasetRepository; uploads: UploadRepository; objects: ObjectStore },
): Promise<UploadSession> {
  const session = await loadVisibleSession(sessionId, caller, deps);
  const files = await deps.uploads.listFiles(caller.hospitalId, sessionId);
  const states = await Promise.all(
    files.map(async (f) => ({
      fileIndex: f.fileIndex,
      fileKey: f.fileKey,
      sizeBytes: f.sizeBytes,
      partCount: f.partCount,
      status: f.status,
      completedParts:
        f.status === 'PENDING' && session.status === 'OPEN' && f.multipartUploadId
          ? (await deps.objects.listParts('uploads', f.objectKey, f.multipartUploadId)).map(({ partNumber, etag }) => ({
              partNumber,
              etag,
            }))
          : [],
    })),
  );
  return {
    sessionId,
    datasetId: session.datasetId,
    partBytes: session.partBytes,
    status: session.status,
    createdAt: session.createdAt,
    files: states,
  };
}
