import type { Caller } from '#shared/domain/auth/caller.ts';
import { requireHospitalAdmin } from '#shared/domain/organisation/common.ts';
import type { JobAccepted, JobKind } from '#shared/schemas/api/jobs.ts';
import { startJob, type JobStartDeps } from './runner.ts';
import { toJob } from './view.ts';

/**
 * Starts a job over the caller's whole hospital that only its admin may start, with no input (a backfill or a recount
 * run once after an upgrade, docs/jobs.md): 202 with the job, which its admins follow.
 */
export async function startHospitalAdminJob(kind: JobKind, caller: Caller, deps: JobStartDeps): Promise<JobAccepted> {
  requireHospitalAdmin(caller);
  const job = await startJob(
    {
      kind,
      ownerHospitalId: caller.hospitalId,
      hospitalId: caller.hospitalId,
      input: {},
      total: null,
      createdBy: { userId: caller.userId, name: `${caller.firstName} ${caller.lastName}`.trim() },
    },
    deps,
  );
  return { jobId: job.id, job: toJob(job) };
}
