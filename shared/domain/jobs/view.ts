import type { Caller } from '#shared/domain/auth/caller.ts';
import { NotFoundError } from '#shared/domain/errors.ts';
import type { PageTokens } from '#shared/domain/ports.ts';
import type { Job, JobResultPage, JobResultsQuery } from '#shared/schemas/api/jobs.ts';
import type { JobRecord, JobStore } from './ports.ts';

export function toJob(job: JobRecord): Job {
  return {
    id: job.id,
    kind: job.kind,
    hospitalId: job.hospitalId,
    status: job.status,
    total: job.total,
    processed: job.processed,
    succeeded: job.succeeded,
    failed: job.failed,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
    finishedAt: job.finishedAt,
    error: job.error,
  };
}

/** A job of the caller's hospital; any other (another hospital's included) answers 404 as if it did not exist. */
async function ownJob(caller: Caller, jobId: string, deps: { jobs: JobStore }): Promise<JobRecord> {
  const job = await deps.jobs.get({ ownerHospitalId: caller.hospitalId, jobId });
  if (!job) throw new NotFoundError('JOB_NOT_FOUND');
  return job;
}

export async function getJob(caller: Caller, jobId: string, deps: { jobs: JobStore }): Promise<Job> {
  return toJob(await ownJob(caller, jobId, deps));
}

/** The job's per-item results in order, a page at a time (the token is sealed to the hospital and the job). */
export async function listJobResults(
  caller: Caller,
  jobId: string,
  query: JobResultsQuery,
  deps: { jobs: JobStore; pageTokens: PageTokens },
): Promise<JobResultPage> {
  const job = await ownJob(caller, jobId, deps);
  const ref = { ownerHospitalId: job.ownerHospitalId, jobId: job.id };
  const scope = `${caller.hospitalId}:job:${job.id}`;
  const startKey = query.nextToken ? await deps.pageTokens.open(scope, query.nextToken) : undefined;
  const page = await deps.jobs.listResults(ref, query.limit, startKey);
  return {
    items: page.items.map((r) => ({ ...r })),
    nextToken: page.lastKey ? await deps.pageTokens.seal(scope, page.lastKey) : null,
  };
}
