/**
 * The upload client: the one implementation of a resumable study upload, used by the site's upload wizard and by
 * `iws upload`. Browser-safe: fetch, Blob, Uint8Array and AbortSignal only.
 *
 * A study goes as one archive (docs/domain.md#upload-sessions): its files, in the order given, packed into a ustar
 * archive whose layout follows from their sizes (shared/domain/uploads/study-archive.ts), sent as one multipart
 * upload in large parts, so the cost of an upload grows with its bytes, not its file count. Flow (routes in
 * shared/definitions/api/routes.ts, bodies in shared/schemas/api/uploads.ts):
 *   POST /api/datasets/{id}/upload/session   open (the files' keys and sizes), or resume: the parts already stored
 *   POST /api/uploads/{s}/parts              presigned PUT URLs, a batch of parts per call
 *   PUT  <presigned URL>                     each missing part, a few at a time, retried with back-off
 *   POST /api/uploads/{s}/complete           the server checks the stored parts, completes the archive, starts the pipeline
 * A part is built from slices of the files it spans (in the browser a Blob of File slices, so no file is ever held
 * whole in memory), and per-file progress follows from the parts done and the layout.
 */
import { isDicomUid } from '#shared/schemas/api/common.ts';
import type { UploadSession } from '#shared/schemas/api/uploads.ts';
import {
  archiveLayout,
  archiveSegments,
  fileBytesIn,
  tarHeader,
  type ArchiveLayout,
} from '#shared/domain/uploads/study-archive.ts';
import { uploadFileKey } from './file-key.ts';
import { abortError, backoffMs, createApiClient, isRetryableStatus, sleep, type ApiConnection } from './api-client.ts';

export type UploadSource = {
  /** Relative path inside the picked folder: named in progress and messages here, never sent (the key is). */
  path: string;
  sizeBytes: number;
  /** The file's key when already known (a resumed session's); otherwise computed from the salt, path and size. */
  fileKey?: string;
  seriesInstanceUID?: string;
  /** Bytes [start, end) of the file. */
  read(start: number, end: number): Promise<Uint8Array>;
  /** Bytes [start, end) as a Blob that reads them only when sent (the browser's File.slice): parts stay off the heap. */
  slice?(start: number, end: number): Blob;
};

export type FileProgress = {
  fileIndex: number;
  path: string;
  uploadedBytes: number;
  totalBytes: number;
  status: 'PENDING' | 'UPLOADING' | 'COMPLETE';
};

export type OverallProgress = {
  uploadedBytes: number;
  totalBytes: number;
  filesComplete: number;
  filesTotal: number;
  /** Parts of the archive PUT by this run, and parts skipped because the server already held them (resume). */
  partsSent: number;
  partsSkipped: number;
};

export type UploadOptions = {
  api: ApiConnection;
  datasetId: string;
  files: UploadSource[];
  /** The salt of the file keys (shared/client/file-key.ts): kept by the client, the same to resume. */
  salt: string;
  /** Parts in flight at once (default 4). */
  concurrency?: number;
  /** Tries per request before giving up (default 5). */
  maxAttempts?: number;
  /** First retry delay; doubles each try, with jitter (default 500 ms). */
  retryDelayMs?: number;
  signal?: AbortSignal;
  onFileProgress?(progress: FileProgress): void;
  onProgress?(progress: OverallProgress): void;
  /** Once the session is open (or found open): its id and the salt are all a client must keep to resume after a restart. */
  onSession?(session: { sessionId: string; datasetId: string; fileCount: number; salt: string }): void;
};

export type UploadResult = {
  sessionId: string;
  datasetId: string;
  /** The body of POST /api/uploads/{sessionId}/complete (the dataset, now with the pipeline started). */
  completion: unknown;
  progress: OverallProgress;
};

/** A part PUT or an API call that kept failing after every retry. */
export class UploadFailedError extends Error {
  constructor(
    message: string,
    readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'UploadFailedError';
  }
}

/** Presigned URLs asked per request (the route accepts up to 100). */
const URL_BATCH = 50;

const MISMATCH =
  'The open upload session of this dataset has other files than the ones given: pick the same folder to resume.';

/**
 * Uploads (or resumes) a dataset's files and completes the upload. Parts the server already holds are not sent
 * again; the same file list (same order, paths and sizes) and salt must be given when resuming. Only file keys and sizes
 * reach the server, never a path.
 */
export async function uploadDataset(options: UploadOptions): Promise<UploadResult> {
  const { api, datasetId, files, signal } = options;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const maxAttempts = Math.max(1, options.maxAttempts ?? 5);
  const retryDelayMs = options.retryDelayMs ?? 500;
  const doFetch = api.fetch ?? globalThis.fetch.bind(globalThis);
  const request = createApiClient(api, { maxAttempts, retryDelayMs, signal });
  if (files.length === 0) throw new UploadFailedError('No files to upload.');
  const fileKeys = await Promise.all(files.map((f) => f.fileKey ?? uploadFileKey(options.salt, f.path, f.sizeBytes)));

  const session = await request<UploadSession>(
    'POST',
    `/api/datasets/${encodeURIComponent(datasetId)}/upload/session`,
    {
      files: files.map((f, index) => ({
        fileKey: fileKeys[index]!,
        sizeBytes: f.sizeBytes,
        // A malformed UID (seen in the wild) is left out rather than failing the session: it is only a grouping hint.
        ...(f.seriesInstanceUID && isDicomUid(f.seriesInstanceUID) ? { seriesInstanceUID: f.seriesInstanceUID } : {}),
      })),
    },
  );
  if (session.files.length !== files.length) throw new UploadFailedError(MISMATCH);
  for (const state of session.files) {
    const file = files[state.fileIndex];
    if (!file || fileKeys[state.fileIndex] !== state.fileKey || file.sizeBytes !== state.sizeBytes)
      throw new UploadFailedError(MISMATCH);
  }
  const layout = archiveLayout(files.map((f) => f.sizeBytes));
  if (layout.totalBytes !== session.archiveBytes) throw new UploadFailedError(MISMATCH);

  options.onSession?.({ sessionId: session.sessionId, datasetId, fileCount: files.length, salt: options.salt });
  const sessionPath = `/api/uploads/${encodeURIComponent(session.sessionId)}`;
  const { partBytes, partCount } = session;
  const partRange = (partNumber: number) => ({
    start: (partNumber - 1) * partBytes,
    end: Math.min(session.archiveBytes, partNumber * partBytes),
  });

  const fileProgress: FileProgress[] = files.map((file, fileIndex) => ({
    fileIndex,
    path: file.path,
    uploadedBytes: 0,
    totalBytes: file.sizeBytes,
    status: 'PENDING',
  }));
  const overall: OverallProgress = {
    uploadedBytes: 0,
    totalBytes: files.reduce((sum, f) => sum + f.sizeBytes, 0),
    filesComplete: 0,
    filesTotal: files.length,
    partsSent: 0,
    partsSkipped: 0,
  };
  const emitOverall = () => options.onProgress?.({ ...overall });
  /** A part is stored: the file bytes it carries count, and files whose last byte it held are complete. */
  function partDone(partNumber: number, emit: boolean): void {
    const { start, end } = partRange(partNumber);
    for (const [fileIndex, bytes] of fileBytesIn(layout, start, end)) {
      const progress = fileProgress[fileIndex]!;
      progress.uploadedBytes += bytes;
      overall.uploadedBytes += bytes;
      const complete = progress.uploadedBytes === progress.totalBytes;
      if (complete) {
        progress.status = 'COMPLETE';
        overall.filesComplete++;
      }
      if (emit || complete) options.onFileProgress?.({ ...progress });
    }
  }

  const held = new Set(session.completedParts);
  const jobs: number[] = [];
  for (let partNumber = 1; partNumber <= partCount; partNumber++) {
    if (held.has(partNumber)) {
      overall.partsSkipped++;
      partDone(partNumber, false);
    } else jobs.push(partNumber);
  }
  for (const progress of fileProgress) if (progress.status !== 'COMPLETE') options.onFileProgress?.({ ...progress });
  emitOverall();

  // Presigned URLs, asked lazily in batches of the parts still missing from the one needed on.
  const urlCache = new Map<number, Promise<string>>();
  function presignedUrl(partNumber: number, fresh: boolean): Promise<string> {
    if (!fresh && urlCache.has(partNumber)) return urlCache.get(partNumber)!;
    const batch = fresh ? [partNumber] : jobs.filter((n) => n >= partNumber && !urlCache.has(n)).slice(0, URL_BATCH);
    const answer = request<{ urls: { partNumber: number; url: string }[] }>('POST', `${sessionPath}/parts`, {
      partNumbers: batch,
    });
    for (const n of batch) {
      const url = answer.then((a) => {
        const found = a.urls.find((u) => u.partNumber === n);
        if (!found) throw new UploadFailedError(`The server gave no upload URL for part ${n}.`);
        return found.url;
      });
      url.catch(() => urlCache.delete(n));
      urlCache.set(n, url);
    }
    return urlCache.get(partNumber)!;
  }

  async function putPart(partNumber: number): Promise<void> {
    const { start, end } = partRange(partNumber);
    const body = await partBody(files, layout, start, end);
    let lastProblem = '';
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      if (signal?.aborted) throw abortError(signal);
      const url = await presignedUrl(partNumber, attempt > 1 && lastProblem === 'expired');
      try {
        const response = await doFetch(url, { method: 'PUT', body: body as BodyInit, signal });
        await response.arrayBuffer().catch(() => undefined);
        if (response.ok) return;
        lastProblem = response.status === 403 ? 'expired' : `HTTP ${response.status}`;
        if (!isRetryableStatus(response.status) && response.status !== 403 && response.status !== 400) break;
      } catch (error) {
        if (signal?.aborted) throw abortError(signal);
        if (error instanceof UploadFailedError) throw error;
        lastProblem = 'network error';
      }
      if (attempt < maxAttempts) await sleep(backoffMs(retryDelayMs, attempt), signal);
    }
    throw new UploadFailedError(`Part ${partNumber} of ${partCount} could not be uploaded (${lastProblem}).`);
  }

  // The first batch of URLs is asked while the first parts are read, not after.
  if (jobs.length > 0) presignedUrl(jobs[0]!, false).catch(() => undefined);
  let next = 0;
  let failure: unknown;
  const workers = Array.from({ length: Math.min(concurrency, Math.max(1, jobs.length)) }, async () => {
    while (failure === undefined && next < jobs.length) {
      const partNumber = jobs[next++]!;
      const { start, end } = partRange(partNumber);
      for (const fileIndex of fileBytesIn(layout, start, end).keys()) {
        const progress = fileProgress[fileIndex]!;
        if (progress.status === 'PENDING') {
          progress.status = 'UPLOADING';
          options.onFileProgress?.({ ...progress });
        }
      }
      await putPart(partNumber);
      overall.partsSent++;
      partDone(partNumber, true);
      emitOverall();
    }
  });
  await Promise.all(
    workers.map((w) =>
      w.catch((error: unknown) => {
        failure ??= error;
      }),
    ),
  );
  if (failure !== undefined) throw failure;
  const completion = await request<unknown>('POST', `${sessionPath}/complete`);
  return { sessionId: session.sessionId, datasetId, completion, progress: { ...overall } };
}

/**
 * Archive bytes [start, end) as a request body: a Blob of header bytes and file slices where the files can be sliced
 * (the browser), otherwise the bytes read into one array (a part's worth, `iws upload`).
 */
export async function partBody(
  files: readonly UploadSource[],
  layout: ArchiveLayout,
  start: number,
  end: number,
): Promise<Blob | Uint8Array> {
  const segments = archiveSegments(layout, start, end);
  const sliceable = files.every((f) => f.slice);
  if (sliceable) {
    const pieces: BlobPart[] = segments.map((s) => {
      if (s.kind === 'zeros') return new Uint8Array(s.length);
      if (s.kind === 'header') return tarHeader(s.fileIndex, files[s.fileIndex]!.sizeBytes).subarray(s.from, s.to);
      return files[s.fileIndex]!.slice!(s.from, s.to);
    });
    return new Blob(pieces);
  }
  const body = new Uint8Array(end - start);
  let offset = 0;
  for (const s of segments) {
    if (s.kind === 'zeros') {
      offset += s.length;
      continue;
    }
    const file = files[s.fileIndex]!;
    const bytes =
      s.kind === 'header'
        ? tarHeader(s.fileIndex, file.sizeBytes).subarray(s.from, s.to)
        : await file.read(s.from, s.to);
    if (bytes.byteLength !== s.to - s.from)
      throw new UploadFailedError(
        `${file.path} changed while uploading (read ${bytes.byteLength} bytes, expected ${s.to - s.from}).`,
      );
    body.set(bytes, offset);
    offset += bytes.byteLength;
  }
  return body;
}
