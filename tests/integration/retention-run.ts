import type { JobRecord, JobResultRecord } from '#shared/domain/jobs/ports.ts';
import { retentionJobId } from '#shared/domain/settings/retention.ts';
import type { Harness } from './datasets-harness.ts';

export type RetentionRun = {
  /** What the scheduled function answered. */
  counts: { started: number; existing: number; inactive: number };
  /** The day's jobs, each with its results in order. */
  jobs: { job: JobRecord; results: JobResultRecord[] }[];
  /** The result of a dataset in its hospital's job, if the job met it. */
  resultOf(hospitalId: string, datasetId: string): JobResultRecord | undefined;
};

let days = 0;

/**
 * Runs the data-retention schedule as its EventBridge rule does (docs/pipeline.md#data-retention), each call on a day
 * of its own (a second run of one day starts no job), then the jobs it started to their end through the harness's
 * worker; answers the day's jobs with their results.
 */
export async function runRetention(h: Harness): Promise<RetentionRun> {
  const { handler } = await import('#functions/jobs/apply-retention.ts');
  const time = new Date(Date.now() + ++days * 86_400_000).toISOString();
  const counts = await handler({ source: 'aws.events', 'detail-type': 'Scheduled Event', time });
  await h.settleJobs();
  const jobs: RetentionRun['jobs'] = [];
  for (const hospitalId of await h.deps.settings.listHospitalIds()) {
    const ref = { ownerHospitalId: hospitalId, jobId: retentionJobId(time) };
    const job = await h.deps.jobs.get(ref);
    if (!job) continue;
    const results: JobResultRecord[] = [];
    let startKey: Record<string, string> | undefined;
    do {
      const page = await h.deps.jobs.listResults(ref, 500, startKey);
      results.push(...page.items);
      startKey = page.lastKey;
    } while (startKey);
    jobs.push({ job, results });
  }
  return {
    counts,
    jobs,
    resultOf: (hospitalId, datasetId) =>
      jobs.find((j) => j.job.hospitalId === hospitalId)?.results.find((r) => r.subject === datasetId),
  };
}
