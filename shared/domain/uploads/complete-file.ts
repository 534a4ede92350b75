import type { Caller } from '#shared/domain/access/caller.ts';
import type { DatasetRepository } from '#shared/domain/datasets/ports.ts';
import { InvalidStateError, NotFoundError, ValidationError } from '#shared/domain/errors.ts';
import type { ObjectStore, StoredPart } from '#shared/domain/storage.ts';
import { loadVisibleSession } from './get-upload-session.ts';
import type { UploadRepository } from './ports.ts';

/** Completes one file's multipart upload. Completing an already complete file is a no-op (a retried request). */
export async function completeFile(
  sessionId: string,
  fileIndex: number,
  parts: StoredPart[],
  caller: Caller,
  deps: { datasets: DatasetRepository; uploads: UploadRepository; objects: ObjectStore },
): Promise<{ fileIndex: number; status: 'COMPLETE' }> {
  const session = await loadVisibleSession(sessionId, caller, deps);
  if (session.status !== 'OPEN') throw new InvalidStateError();
  const file = await deps.uploads.getFile(caller.hospitalId, sessionId, fileIndex);
  if (!file) throw new NotFoundError('UPLOAD_NOT_FOUND');
  if (file.status === 'COMPLETE') return { fileIndex, status: 'COMPLETE' };
  const sorted = [...parts].sort((a, b) => a.partNumber - b.partNumber);
  if (!file.multipartUploadId || sorted.length !== file.partCount || sorted.some((p, i) => p.partNumber !== i + 1))
    throw new InvalidStateError('UPLOAD_INCOMPLETE');
  // Part URLs do not bind a length: the parts the store holds must add up to exactly the declared size, each full-size
  // but the last, or a client could store more (or less) than the limits it was checked against.
  const held = new Map(
    (await deps.objects.listParts('uploads', file.objectKey, file.multipartUploadId)).map((p) => [p.partNumber, p]),
  );
  const expected = (partNumber: number) =>
    partNumber < file.partCount ? session.partBytes : file.sizeBytes - session.partBytes * (file.partCount - 1);
  if (sorted.some((p) => held.get(p.partNumber)?.size !== expected(p.partNumber)))
    throw new InvalidStateError('UPLOAD_INCOMPLETE');
  // Completed with the ETags just listed, never the client's: S3 then joins exactly the parts whose sizes were checked,
  // not a part the client re-uploaded after the listing.
  const checked: StoredPart[] = sorted.map((p) => ({ partNumber: p.partNumber, etag: held.get(p.partNumber)!.etag }));
  try {
    await deps.objects.completeMultipart('uploads', file.objectKey, file.multipartUploadId, checked);
  } catch (error) {
    if (error instanceof Error && /InvalidPart|NoSuchUpload|EntityTooSmall/.test(error.name))
      throw new ValidationError('UPLOAD_INCOMPLETE');
    throw error;
  }
  await deps.uploads.markFileComplete(caller.hospitalId, sessionId, fileIndex);
  return { fileIndex, status: 'COMPLETE' };
}
