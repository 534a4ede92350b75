import type { JobKinds } from '#shared/domain/jobs/runner.ts';
import { bulkInvitationJob } from '#shared/domain/invitations/send-invitation.ts';
import { hospitalDeactivationJob, hospitalRestoreJob } from '#shared/domain/organisation/hospitals.ts';
import { dicomwebIndexJob } from '#shared/domain/intake/index-backfill.ts';
import type { ServerDeps } from '#functions/lib/server-deps.ts';

/** Every kind of job and the core that does its work (docs/jobs.md), for the job worker and the tests. */
export const JOB_KINDS: JobKinds<ServerDeps> = {
  BULK_INVITATIONS: bulkInvitationJob,
  HOSPITAL_DEACTIVATION: hospitalDeactivationJob,
  HOSPITAL_RESTORE: hospitalRestoreJob,
  DICOMWEB_INDEX: dicomwebIndexJob,
};
