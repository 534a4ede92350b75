import { JobResultPageSchema, JobSchema, type Job, type JobResult } from '#shared/schemas/api/jobs.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/**
 * Following a job (docs/jobs.md) from the site: the screens that start one (bulk invitations, a hospital's
 * deactivation or restore) poll it for its progress and read its per-item results once it has ended.
 */
export const JOB_POLL_MS = 1000;

export const isFinished = (job: Job) => job.status === 'SUCCEEDED' || job.status === 'FAILED';

export function fetchJob(jobId: string): Promise<Job> {
  return apiRequest(`/api/jobs/${encodeURIComponent(jobId)}`, JobSchema);
}

/** Every result of a job, page by page, in order of its items. */
export async function fetchAllJobResults(jobId: string): Promise<JobResult[]> {
  const items: JobResult[] = [];
  let nextToken: string | undefined;
  do {
    const page = await apiRequest(`/api/jobs/${encodeURIComponent(jobId)}/results`, JobResultPageSchema, {
      query: { limit: 500, nextToken },
    });
    items.push(...page.items);
    nextToken = page.nextToken ?? undefined;
  } while (nextToken);
  return items;
}

/** Polls the job until it has ended, reporting each read; resolves with the job as it ended. */
export async function followJob(job: Job, onUpdate: (job: Job) => void, pollMs = JOB_POLL_MS): Promise<Job> {
  let current = job;
  onUpdate(current);
  while (!isFinished(current)) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    current = await fetchJob(current.id);
    onUpdate(current);
  }
  return current;
}
