import type { JobKinds } from '#shared/domain/jobs/runner.ts';
import { bulkInvitationJob } from '#shared/domain/invitations/send-invitation.ts';
import { hospitalDeactivationJob, hospitalRestoreJob } from '#shared/domain/organisation/hospitals.ts';
import { datasetExportJob } from '#shared/domain/datasets/export-dataset.ts';
import { auditVerificationJob } from '#shared/domain/audit/verification-job.ts';
import { auditExportJob } from '#shared/domain/audit/export-job.ts';
import { dicomwebIndexJob } from '#shared/domain/intake/index-backfill.ts';
import { retentionJob } from '#shared/domain/settings/retention.ts';
import { reportCountersJob } from '#shared/domain/reports/backfill.ts';
import type { ServerDeps } from '#functions/lib/server-deps.ts';

/** Every kind of job and the core that does its work (docs/jobs.md), for the job worker and the tests. */
export const JOB_KINDS: JobKinds<ServerDeps> = {
  BULK_INVITATIONS: bulkInvitationJob,
  HOSPITAL_DEACTIVATION: hospitalDeactivationJob,
  HOSPITAL_RESTORE: hospitalRestoreJob,
  DATASET_EXPORT: datasetExportJob,
  AUDIT_VERIFICATION: auditVerificationJob,
  DICOMWEB_INDEX: dicomwebIndexJob,
  AUDIT_EXPORT: auditExportJob,
  RETENTION: retentionJob,
  REPORT_COUNTERS: reportCountersJob,
};
