import { catalogueMessage, ERROR_CATALOGUE, type ErrorCode } from '#shared/vocabulary/errors.ts';
import type { JobKind } from '#shared/schemas/api/jobs.ts';
import type { Clock, IdGenerator } from '#shared/domain/ports.ts';
import type { JobRecord, JobRef, JobResultRecord, JobStarter, JobStore } from './ports.ts';

/**
 * The job runner (docs/jobs.md): one function for every host of the job worker and the tests. A job is done a chunk
 * at a time from its stored cursor; each chunk writes its items' results, then moves the cursor and the counters in one
 * conditional write. A run cut off anywhere (a timeout, a crash) is run again from the cursor it left: the items of
 * the chunk it was in run again, so every kind's item is idempotent (a conditional write, a key of its own).
 */

/** One unit of work of a chunk: its position among the job's items (1-based) and what it is about. */
export type JobWorkItem = { seq: number; subject: string; value: unknown };

/** A chunk's items and the cursor after them (null: this was the last chunk). */
export type JobChunk = { items: JobWorkItem[]; next: string | null; total?: number | null };

/** How one item ended, as its kind reports it. */
export type JobItemResult = Pick<JobResultRecord, 'outcome'> & Partial<Pick<JobResultRecord, 'code' | 'ref'>>;

export type JobKindHandler<D> = {
  /** Items of a chunk run at once (JOB_ITEMS_AT_ONCE unless set). */
  itemsAtOnce?: number;
  /** The chunk after `cursor` (null: the first). */
  chunk(job: JobRecord, cursor: string | null, deps: D): Promise<JobChunk>;
  /** Does one item; idempotent. A throw is that item's failure, never the job's. */
  run(job: JobRecord, item: JobWorkItem, deps: D): Promise<JobItemResult>;
  /** After the last chunk, before the job is marked SUCCEEDED (idempotent too: it runs again after a crash). */
  finish?(job: JobRecord, deps: D): Promise<void>;
};

export type JobKinds<D> = Record<JobKind, JobKindHandler<D>>;

export type JobRunnerDeps = { jobs: JobStore; clock: Clock };

/** A job whose chunk throws this many times in a row is FAILED (the items done so far keep their results). */
export const JOB_MAX_CHUNK_FAILURES = 5;
/** Items of one chunk run this many at a time. */
export const JOB_ITEMS_AT_ONCE = 10;

const isCatalogued = (code: unknown): code is ErrorCode => typeof code === 'string' && code in ERROR_CATALOGUE;

function failureOf(error: unknown): Pick<JobResultRecord, 'code' | 'reason'> {
  const code = (error as { code?: unknown } | null)?.code;
  const known: ErrorCode = isCatalogued(code) ? code : 'INTERNAL';
  return { code: known, reason: catalogueMessage(known) };
}

async function runItem<D>(
  kind: JobKindHandler<D>,
  job: JobRecord,
  item: JobWorkItem,
  deps: D,
): Promise<JobResultRecord> {
  const base = { seq: item.seq, subject: item.subject };
  try {
    const result = await kind.run(job, item, deps);
    const code = result.code ?? null;
    return {
      ...base,
      outcome: result.outcome,
      code,
      reason: isCatalogued(code) ? catalogueMessage(code) : null,
      ref: result.ref ?? null,
    };
  } catch (error) {
    return { ...base, outcome: 'FAILED', ...failureOf(error), ref: null };
  }
}

async function runChunk<D>(kind: JobKindHandler<D>, job: JobRecord, items: JobWorkItem[], deps: D) {
  const results: JobResultRecord[] = [];
  const atOnce = kind.itemsAtOnce ?? JOB_ITEMS_AT_ONCE;
  for (let i = 0; i < items.length; i += atOnce)
    results.push(...(await Promise.all(items.slice(i, i + atOnce).map((it) => runItem(kind, job, it, deps)))));
  return results;
}

export type JobStartDeps = { jobs: JobStore; jobStarter: JobStarter; clock: Clock; ids: IdGenerator };

export type JobSpec = Pick<JobRecord, 'kind' | 'ownerHospitalId' | 'hospitalId' | 'input' | 'total' | 'createdBy'>;

/** A new job's record: QUEUED, nothing done yet. */
export function queuedJob(spec: JobSpec, id: string, now: string): JobRecord {
  return {
    ...spec,
    id,
    status: 'QUEUED',
    cursor: null,
    chunks: 0,
    processed: 0,
    succeeded: 0,
    failed: 0,
    chunkFailures: 0,
    createdAt: now,
    updatedAt: now,
    finishedAt: null,
    error: null,
  };
}

/** Creates a QUEUED job and hands it to the worker; the caller answers 202 with it. */
export async function startJob(spec: JobSpec, deps: JobStartDeps): Promise<JobRecord> {
  const job = queuedJob(spec, deps.ids.newId(), deps.clock.now());
  await deps.jobs.create(job);
  await deps.jobStarter.start({ ownerHospitalId: job.ownerHospitalId, jobId: job.id });
  return job;
}

/**
 * Creates the job of a given id once (a claim, e.g. one retention job per hospital and day) and hands it to the
 * worker. When the job exists already it starts none: `created` is false, and a job still QUEUED is handed over again
 * (its first hand-over may have been lost with a crash between the two steps; a second run of a job is harmless, as
 * the runner's conditional advance counts each chunk once).
 */
export async function startJobOnce(
  spec: JobSpec & { id: string },
  deps: Omit<JobStartDeps, 'ids'>,
): Promise<{ job: JobRecord; created: boolean }> {
  const ref = { ownerHospitalId: spec.ownerHospitalId, jobId: spec.id };
  let existing = await deps.jobs.get(ref);
  if (!existing) {
    const job = queuedJob(spec, spec.id, deps.clock.now());
    try {
      await deps.jobs.create(job);
      await deps.jobStarter.start(ref);
      return { job, created: true };
    } catch (error) {
      // Another run created it first (the store's create is conditional on the key being new).
      existing = await deps.jobs.get(ref);
      if (!existing) throw error;
    }
  }
  if (existing.status === 'QUEUED') await deps.jobStarter.start(ref);
  return { job: existing, created: false };
}

/**
 * Runs a job's chunks while `shouldContinue()` holds (the worker's time left), from its stored cursor. Returns
 * done: false when it stopped for time, so the worker hands the job on; a chunk that throws is counted and rethrown
 * (the invocation's retry runs it again) until JOB_MAX_CHUNK_FAILURES, when the job is FAILED.
 */
export async function runJob<D extends JobRunnerDeps>(
  ref: JobRef,
  kinds: JobKinds<D>,
  deps: D,
  shouldContinue: () => boolean = () => true,
): Promise<{ done: boolean; job?: JobRecord }> {
  for (;;) {
    const job = await deps.jobs.get(ref);
    if (!job || job.status === 'SUCCEEDED' || job.status === 'FAILED') return { done: true, job };
    if (!shouldContinue()) return { done: false, job };
    const kind = kinds[job.kind];
    if (job.status === 'QUEUED') await deps.jobs.mark(ref, { status: 'RUNNING', updatedAt: deps.clock.now() });
    try {
      const chunk = await kind.chunk(job, job.cursor, deps);
      const results = await runChunk(kind, job, chunk.items, deps);
      if (results.length > 0) await deps.jobs.putResults(ref, results);
      const succeeded = results.filter((r) => r.outcome === 'SUCCEEDED').length;
      const failed = results.filter((r) => r.outcome === 'FAILED' || r.outcome === 'REFUSED').length;
      const last = chunk.next === null;
      if (last && kind.finish) {
        await kind.finish(
          {
            ...job,
            processed: job.processed + results.length,
            succeeded: job.succeeded + succeeded,
            failed: job.failed + failed,
          },
          deps,
        );
      }
      const now = deps.clock.now();
      // A false answer means another run advanced the job meanwhile: read it again and go on from there.
      await deps.jobs.advance(ref, job.chunks, {
        cursor: chunk.next,
        processed: results.length,
        succeeded,
        failed,
        status: last ? 'SUCCEEDED' : 'RUNNING',
        finishedAt: last ? now : null,
        updatedAt: now,
        ...(chunk.total !== undefined ? { total: chunk.total } : {}),
      });
    } catch (error) {
      const chunkFailures = job.chunkFailures + 1;
      if (chunkFailures >= JOB_MAX_CHUNK_FAILURES) {
        const now = deps.clock.now();
        await deps.jobs.mark(ref, {
          status: 'FAILED',
          chunkFailures,
          error: failureOf(error).code,
          finishedAt: now,
          updatedAt: now,
        });
        return { done: true, job: await deps.jobs.get(ref) };
      }
      await deps.jobs.mark(ref, { chunkFailures, updatedAt: deps.clock.now() });
      throw error;
    }
  }
}
