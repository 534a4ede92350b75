export type UploadSessionStatus = 'OPEN' | 'COMPLETE' | 'ABORTED';

export type UploadSessionRecord = {
  sessionId: string;
  hospitalId: string;
  datasetId: string;
  createdByUserId: string;
  partBytes: number;
  fileCount: number;
  totalBytes: number;
  status: UploadSessionStatus;
  createdAt: string;
};

/** One file of a session = one multipart upload under `<hospitalId>/<datasetId>/raw/<fileIndex>` in the uploads bucket. */
export type UploadFileRecord = {
  sessionId: string;
  hospitalId: string;
  fileIndex: number;
  /** The client's opaque key of the file (FileKeySchema): never a path, so a client holding its salt can resume. */
  fileKey: string;
  sizeBytes: number;
  partCount: number;
  objectKey: string;
  /** Set when the client first asks for part URLs of the file (opening a session makes no S3 calls, so it stays fast for 1000 files). */
  multipartUploadId?: string;
  status: 'PENDING' | 'COMPLETE';
  /** Epoch seconds after which the item is gone: the table's TTL attribute. */
  expiresAtEpoch: number;
};

/** How long an upload's file items live: as long as the raw uploads they name, never beyond an abandoned upload. */
export const UPLOAD_FILES_TTL_SECONDS = 2 * 24 * 60 * 60;

export function uploadFilesExpiry(openedAt: string): number {
  return Math.floor(Date.parse(openedAt) / 1000) + UPLOAD_FILES_TTL_SECONDS;
}

export type UploadRepository = {
  createSession(session: UploadSessionRecord, files: UploadFileRecord[]): Promise<void>;
  getSession(hospitalId: string, sessionId: string): Promise<UploadSessionRecord | undefined>;
  listFiles(hospitalId: string, sessionId: string): Promise<UploadFileRecord[]>;
  getFile(hospitalId: string, sessionId: string, fileIndex: number): Promise<UploadFileRecord | undefined>;
  markFileComplete(hospitalId: string, sessionId: string, fileIndex: number): Promise<void>;
  /** Stores the file's multipart upload id unless one is there already; returns the id that is stored (first writer wins). */
  claimMultipartUpload(
    hospitalId: string,
    sessionId: string,
    fileIndex: number,
    multipartUploadId: string,
  ): Promise<string>;
  setSessionStatus(hospitalId: string, sessionId: string, status: UploadSessionStatus): Promise<void>;
  /** Removes the file items once the upload is complete or its raw uploads are gone. */
  deleteFiles(hospitalId: string, sessionId: string): Promise<void>;
};
