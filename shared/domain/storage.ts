/** The object-store port (S3 in the cloud, an S3-compatible store locally). Buckets are named by role, not by physical name. */
export const BUCKET_NAMES = ['uploads', 'studies', 'assets'] as const;
export type BucketName = (typeof BUCKET_NAMES)[number];

export type StoredPart = { partNumber: number; etag: string };
/** A part as the store lists it: with the byte count it really holds, which the server checks against the declared size. */
export type ListedPart = StoredPart & { size: number };

export type ObjectStore = {
  get(bucket: BucketName, key: string): Promise<Uint8Array>;
  /** Bytes [start, end) of an object (a ranged GET): large objects are read in bounded pieces. */
  getRange(bucket: BucketName, key: string, start: number, end: number): Promise<Uint8Array>;
  put(bucket: BucketName, key: string, bytes: Uint8Array, contentType?: string): Promise<void>;
  /** Keys under a prefix, in key order. */
  list(bucket: BucketName, prefix: string): Promise<{ key: string; size: number }[]>;
  deletePrefix(bucket: BucketName, prefix: string): Promise<number>;
  /** Short-lived presigned GET, built for the endpoint the browser reaches. */
  presignGet(bucket: BucketName, key: string, expiresInSeconds: number): Promise<string>;

  createMultipart(bucket: BucketName, key: string): Promise<string>;
  presignPart(
    bucket: BucketName,
    key: string,
    uploadId: string,
    partNumber: number,
    expiresInSeconds: number,
  ): Promise<string>;
  /** Parts the store already holds (for resume); an unknown or finished upload gives []. */
  listParts(bucket: BucketName, key: string, uploadId: string): Promise<ListedPart[]>;
  completeMultipart(bucket: BucketName, key: string, uploadId: string, parts: StoredPart[]): Promise<void>;
  abortMultipart(bucket: BucketName, key: string, uploadId: string): Promise<void>;
};
