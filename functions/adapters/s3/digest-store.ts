import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { digestPrefix, type DigestStore, type StoredDigest } from '#shared/domain/audit/digests.ts';

/** The object metadata that carries a digest's signature (x-amz-meta-signature), as CloudTrail's digest files do. */
export const DIGEST_SIGNATURE_METADATA = 'signature';

function isPreconditionFailed(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'PreconditionFailed' || e?.$metadata?.httpStatusCode === 412;
}

/**
 * The digest bucket (docs/domain.md#signed-digests): S3 Object Lock keeps each version for the retention period, and
 * every write is conditional (`If-None-Match: *`, which the bucket policy requires), so a digest's key is written once
 * and a second write answers 412. The body is the signed bytes; the signature travels in the object's metadata. The
 * bucket has Object Lock, which takes no PutObject without a checksum: each put carries its SHA-256.
 */
export function createS3DigestStore(s3: S3Client, bucket: () => string): DigestStore {
  async function read(key: string): Promise<StoredDigest> {
    const answer = await s3.send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
    const body = (await answer.Body?.transformToString('utf-8')) ?? '';
    return { key, body, signature: answer.Metadata?.[DIGEST_SIGNATURE_METADATA] ?? '' };
  }
  return {
    async put(digest) {
      try {
        await s3.send(
          new PutObjectCommand({
            Bucket: bucket(),
            Key: digest.key,
            Body: digest.body,
            ContentType: 'application/json',
            Metadata: { [DIGEST_SIGNATURE_METADATA]: digest.signature },
            IfNoneMatch: '*',
            ChecksumAlgorithm: 'SHA256',
          }),
        );
        return 'written';
      } catch (error) {
        if (isPreconditionFailed(error)) return 'exists';
        throw error;
      }
    },
    async list(hospitalId, limit, startAfter) {
      const page = await s3.send(
        new ListObjectsV2Command({
          Bucket: bucket(),
          Prefix: digestPrefix(hospitalId),
          MaxKeys: limit,
          ...(startAfter ? { StartAfter: startAfter } : {}),
        }),
      );
      const keys = (page.Contents ?? []).map((o) => o.Key!).filter(Boolean);
      const items = await Promise.all(keys.map(read));
      return { items, ...(page.IsTruncated && keys.length ? { next: keys.at(-1)! } : {}) };
    },
  };
}
