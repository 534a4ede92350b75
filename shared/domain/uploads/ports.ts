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
  /** Relative path in the picked folder, kept only until the raw upload is deleted (to let a client resume). */
  path: string;
  sizeBytes: number;
  partCount: number;
  objectKey: string;
  /** Set when the client first asks for part URLs of the file (opening a session makes no S3 calls, so it stays fast for 1000 files). */
  multipartUploadId?: string;
  status: 'PENDING' | 'COMPLETE';
};

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
  /** Removes the file items (their paths) once the raw uploads are gone. */
  deleteFiles(hospitalId: string, sessionId: string): Promise<void>;
};
