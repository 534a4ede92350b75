/**
 * The upload client: the one implementation of a resumable study upload, used by the site's upload wizard and by
 * `iws upload`. Browser-safe: fetch, Uint8Array and AbortSignal only.
 *
 * Flow (routes in shared/api/routes.ts, bodies in shared/schemas/api/uploads.ts):
 *   POST /api/datasets/{id}/upload/session       open, or resume: the session lists the parts S3 already holds
 *   POST /api/uploads/{s}/files/{i}/parts        presigned PUT URLs, asked in batches
 *   PUT  <presigned URL>                         each missing part, a bounded number at a time, retried with back-off
 *   POST /api/uploads/{s}/files/{i}/complete     once a file has all its parts
 *   POST /api/uploads/{s}/complete               once every file is complete: the pipeline starts
 */
import { isDicomUid } from '#shared/schemas/api/common.ts';
import type { UploadSession } from '#shared/schemas/api/uploads.ts';
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
  /** Parts PUT by this run, and parts skipped because the server already held them (resume). */
  partsSent: number;
  partsSkipped: number;
};

export type UploadOptions = {
  api: ApiConnection;
  datasetId: string;
  files: UploadSource[];
  /** The salt of the file keys (shared/client/file-key.ts): kept by the client, the same to resume. */
  salt: string;
  /** Parallel part PUTs (default 4). */
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
const URL_BATCH = 20;

type PartJob = { fileIndex: number; partNumber: number; start: number; end: number };

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
  if (session.files.length !== files.length) {
    throw new UploadFailedError(
      'The open upload session of this dataset has other files than the ones given: pick the same folder to resume.',
    );
  }
  for (const state of session.files) {
    const file = files[state.fileIndex];
    if (!file || fileKeys[state.fileIndex] !== state.fileKey || file.sizeBytes !== state.sizeBytes) {
      throw new UploadFailedError(
        'The open upload session of this dataset has other files than the ones given: pick the same folder to resume.',
      );
    }
  }

  options.onSession?.({ sessionId: session.sessionId, datasetId, fileCount: files.length, salt: options.salt });
  const sessionPath = `/api/uploads/${encodeURIComponent(session.sessionId)}`;
  const partBytes = session.partBytes;
  const etags = new Map<number, Map<number, string>>();
  const fileProgress = new Map<number, FileProgress>();
  const overall: OverallProgress = {
    uploadedBytes: 0,
    totalBytes: files.reduce((sum, f) => sum + f.sizeBytes, 0),
    filesComplete: 0,
    filesTotal: files.length,
    partsSent: 0,
    partsSkipped: 0,
  };
  const partSize = (size: number, partNumber: number) => Math.min(partBytes, size - (partNumber - 1) * partBytes);
  const emitFile = (p: FileProgress) => options.onFileProgress?.({ ...p });
  const emitOverall = () => options.onProgress?.({ ...overall });

  const jobs: PartJob[] = [];
  const remainingParts = new Map<number, number>();
  for (const state of session.files) {
    const file = files[state.fileIndex]!;
    const held = new Map(state.completedParts.map((p) => [p.partNumber, p.etag]));
    etags.set(state.fileIndex, held);
    let uploaded = 0;
    let missing = 0;
    for (let partNumber = 1; partNumber <= state.partCount; partNumber++) {
      const start = (partNumber - 1) * partBytes;
      const end = Math.min(file.sizeBytes, start + partBytes);
      if (state.status === 'COMPLETE' || held.has(partNumber)) {
        uploaded += end - start;
        overall.partsSkipped++;
      } else {
        jobs.push({ fileIndex: state.fileIndex, partNumber, start, end });
        missing++;
      }
    }
    remainingParts.set(state.fileIndex, missing);
    overall.uploadedBytes += uploaded;
    if (state.status === 'COMPLETE') overall.filesComplete++;
    const progress: FileProgress = {
      fileIndex: state.fileIndex,
      path: file.path,
      uploadedBytes: uploaded,
      totalBytes: file.sizeBytes,
      status: state.status === 'COMPLETE' ? 'COMPLETE' : 'PENDING',
    };
    fileProgress.set(state.fileIndex, progress);
    emitFile(progress);
  }
  emitOverall();

  // Presigned URLs, asked lazily per file in batches of the parts still missing.
  const urlCache = new Map<string, Promise<string>>();
  const urlKey = (fileIndex: number, partNumber: number) => `${fileIndex}:${partNumber}`;
  function presignedUrl(job: PartJob, fresh: boolean): Promise<string> {
    const key = urlKey(job.fileIndex, job.partNumber);
    if (!fresh && urlCache.has(key)) return urlCache.get(key)!;
    const batch = fresh
      ? [job.partNumber]
      : jobs
          .filter(
            (j) =>
              j.fileIndex === job.fileIndex &&
              j.partNumber >= job.partNumber &&
              !urlCache.has(urlKey(j.fileIndex, j.partNumber)),
          )
          .slice(0, URL_BATCH)
          .map((j) => j.partNumber);
    const answer = request<{ urls: { partNumber: number; url: string }[] }>(
      'POST',
      `${sessionPath}/files/${job.fileIndex}/parts`,
      { partNumbers: batch },
    );
    for (const partNumber of batch) {
      const url = answer.then((a) => {
        const found = a.urls.find((u) => u.partNumber === partNumber);
        if (!found)
          throw new UploadFailedError(
            `The server gave no upload URL for part ${partNumber} of ${files[job.fileIndex]!.path}.`,
          );
        return found.url;
      });
      url.catch(() => urlCache.delete(urlKey(job.fileIndex, partNumber)));
      urlCache.set(urlKey(job.fileIndex, partNumber), url);
    }
    return urlCache.get(key)!;
  }

  async function putPart(job: PartJob): Promise<string> {
    const file = files[job.fileIndex]!;
    const bytes = await file.read(job.start, job.end);
    if (bytes.byteLength !== job.end - job.start) {
      throw new UploadFailedError(
        `${file.path} changed while uploading (read ${bytes.byteLength} bytes, expected ${job.end - job.start}).`,
      );
    }
    let lastProblem = '';
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      if (signal?.aborted) throw abortError(signal);
      const url = await presignedUrl(job, attempt > 1 && lastProblem === 'expired');
      try {
        const response = await doFetch(url, { method: 'PUT', body: bytes as unknown as BodyInit, signal });
        await response.arrayBuffer().catch(() => undefined);
        if (response.ok) {
          const etag = response.headers.get('etag');
          if (!etag)
            throw new UploadFailedError(
              'The storage did not expose the ETag header of an uploaded part (CORS ExposeHeader ETag is needed).',
            );
          return etag;
        }
        lastProblem = response.status === 403 ? 'expired' : `HTTP ${response.status}`;
        if (!isRetryableStatus(response.status) && response.status !== 403 && response.status !== 400) break;
      } catch (error) {
        if (signal?.aborted) throw abortError(signal);
        if (error instanceof UploadFailedError) throw error;
        lastProblem = 'network error';
      }
      if (attempt < maxAttempts) await sleep(backoffMs(retryDelayMs, attempt), signal);
    }
    throw new UploadFailedError(`Part ${job.partNumber} of ${file.path} could not be uploaded (${lastProblem}).`);
  }

  async function completeFile(fileIndex: number): Promise<void> {
    const parts = [...etags.get(fileIndex)!.entries()]
      .sort(([a], [b]) => a - b)
      .map(([partNumber, etag]) => ({ partNumber, etag }));
    await request('POST', `${sessionPath}/files/${fileIndex}/complete`, { parts });
    const progress = fileProgress.get(fileIndex)!;
    progress.status = 'COMPLETE';
    overall.filesComplete++;
    emitFile(progress);
    emitOverall();
  }

  // Files whose parts are all held but that were never completed (a crash between the last PUT and complete).
  const toComplete = session.files
    .filter((f) => f.status !== 'COMPLETE' && remainingParts.get(f.fileIndex) === 0)
    .map((f) => f.fileIndex);

  let next = 0;
  let failure: unknown;
  const workers = Array.from(
    { length: Math.min(concurrency, Math.max(1, jobs.length + toComplete.length)) },
    async () => {
      while (failure === undefined) {
        const pending = toComplete.shift();
        if (pending !== undefined) {
          await completeFile(pending);
          continue;
        }
        if (next >= jobs.length) return;
        const job = jobs[next++]!;
        const progress = fileProgress.get(job.fileIndex)!;
        if (progress.status === 'PENDING') {
          progress.status = 'UPLOADING';
          emitFile(progress);
        }
        const etag = await putPart(job);
        etags.get(job.fileIndex)!.set(job.partNumber, etag);
        const size = partSize(files[job.fileIndex]!.sizeBytes, job.partNumber);
        progress.uploadedBytes += size;
        overall.uploadedBytes += size;
        overall.partsSent++;
        emitFile(progress);
        emitOverall();
        const left = remainingParts.get(job.fileIndex)! - 1;
        remainingParts.set(job.fileIndex, left);
        if (left === 0) await completeFile(job.fileIndex);
      }
    },
  );
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
