import type { JobItemOutcome, JobKind, JobStatus } from '#shared/schemas/api/jobs.ts';

/** Where a job is found: the hospital of the caller who started it, and its id. */
export type JobRef = { ownerHospitalId: string; jobId: string };

/**
 * A job item (docs/jobs.md). `cursor` is where the next chunk starts (null: from the beginning); it moves with the
 * counters in one conditional write, so a chunk is counted once however often it runs.
 */
export type JobRecord = {
  id: string;
  kind: JobKind;
  /** The starter's hospital: the job's partition, and the only hospital whose users may read it. */
  ownerHospitalId: string;
  /** The hospital the work is about. */
  hospitalId: string;
  status: JobStatus;
  /** What the kind needs to do the work (the rows of a bulk request, the acknowledgement of a deactivation). */
  input: Record<string, unknown>;
  cursor: string | null;
  /** Chunks done: the version the next write is conditioned on. */
  chunks: number;
  total: number | null;
  processed: number;
  succeeded: number;
  failed: number;
  /** Chunks that threw since the last one that completed (a job gives up after JOB_MAX_CHUNK_FAILURES in a row). */
  chunkFailures: number;
  createdBy: { userId: string; name: string };
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
  error: string | null;
};

/** One item's result, stored as an item under the job (a 5,000-item job never approaches the 400 KB item limit). */
export type JobResultRecord = {
  seq: number;
  subject: string;
  outcome: JobItemOutcome;
  code: string | null;
  reason: string | null;
  ref: string | null;
};

/** What one completed chunk changes on the job, written only if nobody else advanced it first. */
export type JobAdvance = {
  cursor: string | null;
  processed: number;
  succeeded: number;
  failed: number;
  status: JobStatus;
  finishedAt: string | null;
  updatedAt: string;
  total?: number | null;
  error?: string | null;
};

export type JobStore = {
  create(job: JobRecord): Promise<void>;
  get(ref: JobRef): Promise<JobRecord | undefined>;
  /**
   * Applies a chunk's changes if the job is still at `expectedChunks` chunks (its counters are added, the cursor and
   * status set); false when another run advanced it first.
   */
  advance(ref: JobRef, expectedChunks: number, change: JobAdvance): Promise<boolean>;
  /** Sets the status and the failure counter without moving the cursor (RUNNING at the first chunk, FAILED at the end). */
  mark(
    ref: JobRef,
    fields: Partial<Pick<JobRecord, 'status' | 'chunkFailures' | 'error' | 'finishedAt' | 'updatedAt'>>,
  ): Promise<void>;
  /** Writes results by their seq: writing one again replaces it, so a retried chunk leaves one result per item. */
  putResults(ref: JobRef, results: readonly JobResultRecord[]): Promise<void>;
  listResults(
    ref: JobRef,
    limit: number,
    startKey?: Record<string, string>,
  ): Promise<{ items: JobResultRecord[]; lastKey?: Record<string, string> }>;
};

/** Hands a job to its worker (an asynchronous invocation of the job worker function); returns at once. */
export type JobStarter = { start(ref: JobRef): Promise<void> };
