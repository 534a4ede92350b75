import type { Caller } from '#shared/domain/auth/caller.ts';
import type { DatasetRepository } from '#shared/domain/datasets/ports.ts';
import { InvalidStateError, ValidationError } from '#shared/domain/errors.ts';
import type { ObjectStore } from '#shared/domain/storage.ts';
import { loadVisibleSession } from './get-upload-session.ts';
import type { UploadRepository } from './ports.ts';

/** Part URLs live an hour: a slow link uploads a 16 MiB part well within that, and the client asks again after. */
export const PART_URL_TTL_SECONDS = 60 * 60;

/** Presigned PUT URLs for a batch of the session archive's parts: one call signs many (signing makes no S3 call). */
export async function presignParts(
  sessionId: string,
  partNumbers: number[],
  caller: Caller,
  deps: { datasets: DatasetRepository; uploads: UploadRepository; objects: ObjectStore },
): Promise<{ urls: { partNumber: number; url: string }[] }> {
  const session = await loadVisibleSession(sessionId, caller, deps);
  if (session.status !== 'OPEN') throw new InvalidStateError();
  if (partNumbers.some((n) => n > session.partCount)) throw new ValidationError();
  const urls = await Promise.all(
    [...new Set(partNumbers)].map(async (partNumber) => ({
      partNumber,
      url: await deps.objects.presignPart(
        'uploads',
        session.archiveKey,
        session.multipartUploadId,
        partNumber,
        PART_URL_TTL_SECONDS,
      ),
    })),
  );
  return { urls };
}
