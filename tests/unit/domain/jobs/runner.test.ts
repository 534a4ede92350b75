import { describe, expect, it } from 'vitest';
import { createMemoryJobStore } from '#functions/adapters/memory/jobs-store.ts';
import type { JobRecord } from '#shared/domain/jobs/ports.ts';
import {
  JOB_MAX_CHUNK_FAILURES,
  runJob,
  startJob,
  type JobKindHandler,
  type JobKinds,
  type JobRunnerDeps,
} from '#shared/domain/jobs/runner.ts';
import { EmailTakenError } from '#shared/domain/errors.ts';

/**
 * The job runner (docs/jobs.md) over the in-memory store with a kind of numbered items: chunks from the stored
 * cursor, one result per item however often a chunk runs, a failing item that fails only itself.
 */
type Deps = JobRunnerDeps & { done: number[]; failOn: Set<number>; refuse: Set<number> };

const CHUNK = 4;

const numbers: JobKindHandler<Deps> = {
  async chunk(job, cursor) {
    const count = Number(job.input.count);
    const from = cursor === null ? 0 : Number(cursor);
    const to = Math.min(count, from + CHUNK);
    return {
      items: Array.from({ length: to - from }, (_, i) => ({
        seq: from + i + 1,
        subject: `item-${from + i + 1}`,
        value: from + i + 1,
      })),
      next: to < count ? String(to) : null,
      total: count,
    };
  },
  async run(_job, item, deps) {
    const n = item.value as number;
    if (deps.failOn.has(n)) throw new Error('provider down');
    if (deps.refuse.has(n)) throw new EmailTakenError('EMAIL_ALREADY_INVITED');
    // Idempotent, as every kind's item is: doing it again changes nothing.
    if (!deps.done.includes(n)) deps.done.push(n);
    return { outcome: 'SUCCEEDED', ref: `made-${n}` };
  },
};

const KINDS = {
  BULK_INVITATIONS: numbers,
  HOSPITAL_DEACTIVATION: numbers,
  HOSPITAL_RESTORE: numbers,
} as JobKinds<Deps>;

async function setup(count: number) {
  const jobs = createMemoryJobStore();
  const started: string[] = [];
  let id = 0;
  const deps: Deps = {
    jobs,
    clock: { now: () => '2026-02-01T10:00:00.000Z' },
    done: [],
    failOn: new Set(),
    refuse: new Set(),
  };
  const job = await startJob(
    {
      kind: 'BULK_INVITATIONS',
      ownerHospitalId: 'h1',
      hospitalId: 'h1',
      input: { count },
      total: count,
      createdBy: { userId: 'u1', name: 'Pat Admin' },
    },
    {
      jobs,
      jobStarter: { start: async (ref) => void started.push(ref.jobId) },
      clock: deps.clock,
      ids: { newId: () => `job-${++id}` },
    },
  );
  const ref = { ownerHospitalId: 'h1', jobId: job.id };
  return { jobs, deps, job, ref, started };
}

describe('job runner', () => {
  it('creates the job QUEUED and hands it to the worker', async () => {
    const { job, started, jobs, ref } = await setup(3);
    expect(started).toEqual([job.id]);
    expect(await jobs.get(ref)).toMatchObject({ status: 'QUEUED', cursor: null, processed: 0, total: 3 });
  });

  it('works in chunks from the cursor until the last, with a result per item', async () => {
    // Arrange
    const { jobs, deps, ref } = await setup(10);

    // Act
    const outcome = await runJob(ref, KINDS, deps);

    // Assert
    expect(outcome.done).toBe(true);
    expect(await jobs.get(ref)).toMatchObject<Partial<JobRecord>>({
      status: 'SUCCEEDED',
      chunks: 3,
      cursor: null,
      processed: 10,
      succeeded: 10,
      failed: 0,
      finishedAt: '2026-02-01T10:00:00.000Z',
    });
    expect(jobs.results(ref).map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(deps.done).toHaveLength(10);
  });

  it('stops between chunks when told to and resumes from the stored cursor', async () => {
    // Arrange
    const { jobs, deps, ref } = await setup(10);
    let chunks = 0;

    // Act
    const first = await runJob(ref, KINDS, deps, () => chunks++ < 1);
    const between = await jobs.get(ref);
    const second = await runJob(ref, KINDS, deps);

    // Assert
    expect(first.done).toBe(false);
    expect(between).toMatchObject({ status: 'RUNNING', cursor: '4', processed: 4 });
    expect(second.done).toBe(true);
    expect(await jobs.get(ref)).toMatchObject({ status: 'SUCCEEDED', processed: 10, succeeded: 10 });
  });

  it('runs a chunk cut off by a crash again from its cursor: each item done and counted once', async () => {
    // Arrange: the worker dies after the second chunk's items, before its advance.
    const { jobs, deps, ref } = await setup(10);
    const advance = jobs.advance;
    let advances = 0;
    jobs.advance = async (...args) => {
      if (++advances === 2) throw new Error('worker lost');
      return advance(...args);
    };

    // Act
    const crash = await runJob(ref, KINDS, deps).catch((e: Error) => e);
    const afterCrash = await jobs.get(ref);
    await runJob(ref, KINDS, deps);

    // Assert
    expect(crash).toBeInstanceOf(Error);
    expect(afterCrash).toMatchObject({ status: 'RUNNING', cursor: '4', processed: 4, chunkFailures: 1 });
    expect(await jobs.get(ref)).toMatchObject({ status: 'SUCCEEDED', processed: 10, succeeded: 10, chunkFailures: 0 });
    expect(deps.done).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(jobs.results(ref).map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('counts a chunk once when two runs race: the second advance is refused', async () => {
    // Arrange
    const { jobs, deps, ref } = await setup(8);

    // Act
    await Promise.all([runJob(ref, KINDS, deps), runJob(ref, KINDS, deps)]);

    // Assert
    expect(await jobs.get(ref)).toMatchObject({ status: 'SUCCEEDED', processed: 8, succeeded: 8 });
    expect(jobs.results(ref)).toHaveLength(8);
  });

  it("records a failing item's failure and a refused item's reason without failing the job", async () => {
    // Arrange
    const { jobs, deps, ref } = await setup(6);
    deps.failOn.add(2);
    deps.refuse.add(5);

    // Act
    await runJob(ref, KINDS, deps);

    // Assert
    expect(await jobs.get(ref)).toMatchObject({ status: 'SUCCEEDED', processed: 6, succeeded: 4, failed: 2 });
    const results = jobs.results(ref);
    expect(results[1]).toEqual({
      seq: 2,
      subject: 'item-2',
      outcome: 'FAILED',
      code: 'INTERNAL',
      reason: 'Something went wrong on our side. Please try again.',
      ref: null,
    });
    expect(results[4]).toMatchObject({ seq: 5, outcome: 'FAILED', code: 'EMAIL_ALREADY_INVITED' });
    expect(results[0]).toMatchObject({ outcome: 'SUCCEEDED', ref: 'made-1' });
  });

  it('fails the job after a chunk throws JOB_MAX_CHUNK_FAILURES times in a row, keeping the results so far', async () => {
    // Arrange
    const { jobs, deps, ref } = await setup(10);
    const broken: JobKinds<Deps> = {
      ...KINDS,
      BULK_INVITATIONS: {
        ...numbers,
        chunk: async (job, cursor) => {
          if (cursor !== null) throw Object.assign(new Error('table down'), { code: 'SERVICE_UNAVAILABLE' });
          return numbers.chunk(job, cursor, deps);
        },
      },
    };

    // Act
    const errors: unknown[] = [];
    for (let attempt = 0; attempt < JOB_MAX_CHUNK_FAILURES; attempt++)
      await runJob(ref, broken, deps).then(
        () => undefined,
        (e: unknown) => errors.push(e),
      );

    // Assert
    expect(errors).toHaveLength(JOB_MAX_CHUNK_FAILURES - 1);
    expect(await jobs.get(ref)).toMatchObject({
      status: 'FAILED',
      error: 'SERVICE_UNAVAILABLE',
      processed: 4,
      chunkFailures: JOB_MAX_CHUNK_FAILURES,
    });
    expect(jobs.results(ref)).toHaveLength(4);
    expect((await runJob(ref, broken, deps)).done).toBe(true);
  });
});
