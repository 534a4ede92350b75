import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { BucketName, ListedPart, ObjectStore } from '#shared/domain/storage.ts';
import { prepareClient } from '#functions/adapters/aws-clients.ts';

export type S3Options = {
  region: string;
  buckets: Record<BucketName, string>;
  endpoint?: string;
  /** Endpoint the browser reaches, for presigned URLs; defaults to `endpoint`. */
  publicEndpoint?: string;
};

/**
 * S3 clients: checksums WHEN_REQUIRED always (with the SDK default, presigned PUTs carry the CRC32 of an empty
 * body and real S3 rejects browser uploads; stream bodies get aws-chunked framing the local store keeps), and
 * path-style addressing whenever an endpoint is set.
 */
export function createS3Client(region: string, endpoint?: string): S3Client {
  return prepareClient(
    new S3Client({
      region,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
    }),
  );
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && ['NoSuchUpload', 'NoSuchKey', 'NotFound'].includes(error.name);
}

export function createObjectStore(
  options: S3Options,
  clients?: { s3: S3Client; presigner: S3Client },
): ObjectStore & { headBucket(bucket: BucketName): Promise<void> } {
  const s3 = clients?.s3 ?? createS3Client(options.region, options.endpoint);
  const presigner =
    clients?.presigner ??
    (options.publicEndpoint && options.publicEndpoint !== options.endpoint
      ? createS3Client(options.region, options.publicEndpoint)
      : s3);
  const Bucket = (name: BucketName) => options.buckets[name];

  async function list(bucket: BucketName, prefix: string) {
    const out: { key: string; size: number }[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await s3.send(
        new ListObjectsV2Command({ Bucket: Bucket(bucket), Prefix: prefix, ContinuationToken }),
      );
      for (const object of page.Contents ?? []) if (object.Key) out.push({ key: object.Key, size: object.Size ?? 0 });
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return out.sort((a, b) => a.key.localeCompare(b.key, 'en', { numeric: true }));
  }

  return {
    async get(bucket, key) {
      const result = await s3.send(new GetObjectCommand({ Bucket: Bucket(bucket), Key: key }));
      return new Uint8Array(await result.Body!.transformToByteArray());
    },
    async getRange(bucket, key, start, end) {
      const result = await s3.send(
        new GetObjectCommand({ Bucket: Bucket(bucket), Key: key, Range: `bytes=${start}-${end - 1}` }),
      );
      return new Uint8Array(await result.Body!.transformToByteArray());
    },
    async put(bucket, key, bytes, contentType) {
      await s3.send(new PutObjectCommand({ Bucket: Bucket(bucket), Key: key, Body: bytes, ContentType: contentType }));
    },
    list,
    async deletePrefix(bucket, prefix) {
      const objects = await list(bucket, prefix);
      for (let i = 0; i < objects.length; i += 1000) {
        await s3.send(
          new DeleteObjectsCommand({
            Bucket: Bucket(bucket),
            Delete: { Objects: objects.slice(i, i + 1000).map((o) => ({ Key: o.key })), Quiet: true },
          }),
        );
      }
      return objects.length;
    },
    presignGet: (bucket, key, expiresIn) =>
      getSignedUrl(presigner, new GetObjectCommand({ Bucket: Bucket(bucket), Key: key }), { expiresIn }),
    async createMultipart(bucket, key) {
      const result = await s3.send(
        new CreateMultipartUploadCommand({ Bucket: Bucket(bucket), Key: key, ContentType: 'application/octet-stream' }),
      );
      return result.UploadId!;
    },
    presignPart: (bucket, key, uploadId, partNumber, expiresIn) =>
      getSignedUrl(
        presigner,
        new UploadPartCommand({ Bucket: Bucket(bucket), Key: key, UploadId: uploadId, PartNumber: partNumber }),
        { expiresIn },
      ),
    async listParts(bucket, key, uploadId) {
      const parts: ListedPart[] = [];
      let PartNumberMarker: string | undefined;
      try {
        do {
          const page = await s3.send(
            new ListPartsCommand({ Bucket: Bucket(bucket), Key: key, UploadId: uploadId, PartNumberMarker }),
          );
          for (const part of page.Parts ?? [])
            if (part.PartNumber && part.ETag)
              parts.push({ partNumber: part.PartNumber, etag: part.ETag, size: part.Size ?? 0 });
          PartNumberMarker = page.IsTruncated ? String(page.NextPartNumberMarker) : undefined;
        } while (PartNumberMarker);
      } catch (error) {
        if (isMissing(error)) return [];
        throw error;
      }
      return parts;
    },
    async completeMultipart(bucket, key, uploadId, parts) {
      await s3.send(
        new CompleteMultipartUploadCommand({
          Bucket: Bucket(bucket),
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })) },
        }),
      );
    },
    async abortMultipart(bucket, key, uploadId) {
      try {
        await s3.send(new AbortMultipartUploadCommand({ Bucket: Bucket(bucket), Key: key, UploadId: uploadId }));
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    },
    async headBucket(bucket) {
      await s3.send(new HeadBucketCommand({ Bucket: Bucket(bucket) }));
    },
  };
}
