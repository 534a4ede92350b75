import type { BucketName, ObjectStore, StoredPart } from '#shared/domain/storage.ts';

/** S3 stand-in in memory, with multipart semantics close enough for the API (ETag per part, ListParts, Complete). */
export function createMemoryObjectStore(): ObjectStore & {
  objects: Map<string, Uint8Array>;
  uploadPart(uploadId: string, partNumber: number, bytes: Uint8Array): string;
} {
  const objects = new Map<string, Uint8Array>();
  const uploads = new Map<
    string,
    { bucket: BucketName; key: string; parts: Map<number, { etag: string; bytes: Uint8Array }> }
  >();
  let counter = 0;
  const id = (bucket: string, key: string) => `${bucket}/${key}`;
  return {
    objects,
    uploadPart(uploadId, partNumber, bytes) {
      const upload = uploads.get(uploadId);
      if (!upload) throw Object.assign(new Error('no upload'), { name: 'NoSuchUpload' });
      const etag = `"etag-${uploadId}-${partNumber}"`;
      upload.parts.set(partNumber, { etag, bytes });
      return etag;
    },
    async get(bucket, key) {
      const bytes = objects.get(id(bucket, key));
      if (!bytes) throw Object.assign(new Error('missing'), { name: 'NoSuchKey' });
      return bytes;
    },
    async getRange(bucket, key, start, end) {
      const bytes = objects.get(id(bucket, key));
      if (!bytes) throw Object.assign(new Error('missing'), { name: 'NoSuchKey' });
      return bytes.slice(start, end);
    },
    async put(bucket, key, bytes) {
      objects.set(id(bucket, key), bytes);
    },
    async list(bucket, prefix) {
      return [...objects.entries()]
        .filter(([k]) => k.startsWith(id(bucket, prefix)))
        .map(([k, v]) => ({ key: k.slice(bucket.length + 1), size: v.byteLength }))
        .sort((a, b) => a.key.localeCompare(b.key, 'en', { numeric: true }));
    },
    async deletePrefix(bucket, prefix) {
      const keys = [...objects.keys()].filter((k) => k.startsWith(id(bucket, prefix)));
      keys.forEach((k) => objects.delete(k));
      return keys.length;
    },
    async presignGet(bucket, key, ttl) {
      return `https://memory.invalid/${bucket}/${key}?X-Amz-Expires=${ttl}`;
    },
    async createMultipart(bucket, key) {
      const uploadId = `mpu-${++counter}`;
      uploads.set(uploadId, { bucket, key, parts: new Map() });
      return uploadId;
    },
    async presignPart(bucket, key, uploadId, partNumber, ttl) {
      return `https://memory.invalid/${bucket}/${key}?uploadId=${uploadId}&partNumber=${partNumber}&X-Amz-Expires=${ttl}`;
    },
    async listParts(_bucket, _key, uploadId) {
      const upload = uploads.get(uploadId);
      return upload
        ? [...upload.parts.entries()]
            .sort(([a], [b]) => a - b)
            .map(([partNumber, p]) => ({ partNumber, etag: p.etag, size: p.bytes.byteLength }))
        : [];
    },
    async completeMultipart(bucket, key, uploadId, parts: StoredPart[]) {
      const upload = uploads.get(uploadId);
      if (!upload) throw Object.assign(new Error('no upload'), { name: 'NoSuchUpload' });
      const chunks = parts.map((p) => {
        const stored = upload.parts.get(p.partNumber);
        if (!stored || stored.etag !== p.etag) throw Object.assign(new Error('bad part'), { name: 'InvalidPart' });
        return stored.bytes;
      });
      const total = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
      let offset = 0;
      for (const c of chunks) {
        total.set(c, offset);
        offset += c.byteLength;
      }
      objects.set(id(bucket, key), total);
      uploads.delete(uploadId);
    },
    async abortMultipart(_bucket, _key, uploadId) {
      uploads.delete(uploadId);
    },
  };
}
