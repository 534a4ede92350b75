export type UploadSessionStatus = 'OPEN' | 'COMPLETE' | 'ABORTED';

/**
 * One upload session: the study's files packed into one archive (docs/domain.md#upload-sessions), sent as one S3
 * multipart upload at `archiveKey` in the uploads bucket. The declared files (keys and sizes, in archive order) are
 * the manifest object beside it (uploadKeys.manifest), not table items: a 5,000-file study costs one item.
 */
export type UploadSessionRecord = {
  sessionId: string;
  hospitalId: string;
  datasetId: string;
  createdByUserId: string;
  fileCount: number;
  /** The declared files' bytes (what counts towards storage). */
  totalBytes: number;
  archiveKey: string;
  /** The archive's exact length, from the declared sizes (shared/domain/uploads/study-archive.ts). */
  archiveBytes: number;
  partBytes: number;
  partCount: number;
  multipartUploadId: string;
  status: UploadSessionStatus;
  createdAt: string;
};

/** A session's declared files in archive order, as the manifest object holds them. */
export type UploadManifest = { files: { fileKey: string; sizeBytes: number }[] };

export type UploadRepository = {
  createSession(session: UploadSessionRecord): Promise<void>;
  getSession(hospitalId: string, sessionId: string): Promise<UploadSessionRecord | undefined>;
  setSessionStatus(hospitalId: string, sessionId: string, status: UploadSessionStatus): Promise<void>;
};
