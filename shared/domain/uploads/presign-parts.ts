import type { Caller } from '#shared/domain/access/caller.ts';
import type { DatasetRepository } from '#shared/domain/datasets/ports.ts';
import { InvalidStateError, NotFoundError, ValidationError } from '#shared/domain/errors.ts';
import type { ObjectStore } from '#shared/domain/storage.ts';
import { loadVisibleSession } from './get-upload-session.ts';
import type { UploadFileRecord, UploadRepository } from './ports.ts';

/** Starts the file's multipart upload; when parallel requests race, the first stored id wins and the others are aborted. */
async function startMultipart(
  file: UploadFileRecord,
  deps: { uploads: UploadRepository; objects: ObjectStore },
): Promise<string> {
  const started = await deps.objects.createMultipart('uploads', file.objectKey);
  const stored = await deps.uploads.claimMultipartUpload(file.hospitalId, file.sessionId, file.fileIndex, started);
  if (stored !== started) await deps.objects.abortMultipart('uploads', file.objectKey, started);
  return stored;
}

/** Part URLs live an hour: a slow link uploads an 8 MB part well within that, and the client asks again after. */
export const PART_URL_TTL_SECONDS = 60 * 60;

export async function presignParts(
  sessionId: string,
  fileIndex: number,
  partNumbers: number[],
  caller: Caller,
  deps: { datasets: DatasetRepository; uploads: UploadRepository; objects: ObjectStore },
): Promise<{ urls: { partNumber: number; url: string }[] }> {
  const session = await loadVisibleSession(sessionId, caller, deps);
  if (session.status !== 'OPEN') throw new InvalidStateError();
  const file = await deps.uploads.getFile(caller.hospitalId, sessionId, fileIndex);
  if (!file) throw new NotFoundError('UPLOAD_NOT_FOUND');
  if (file.status !== 'PENDING') throw new InvalidStateError();
  if (partNumbers.some((n) => n > file.partCount)) throw new ValidationError();
  const uploadId = file.multipartUploadId ?? (await startMultipart(file, deps));
  const urls = await Promise.all(
    partNumbers.map(async (partNumber) => ({
      partNumber,
      url: await deps.objects.presignPart('uploads', file.objectKey, uploadId, partNumber, PART_URL_TTL_SECONDS),
    })),
  );
  return { urls };
}
