import { z } from 'zod';
import { IdSchema, pageOf } from './common.ts';

/**
 * Long work as jobs (docs/jobs.md): a request that would not fit in API Gateway's 29 s answers 202 with the job, and the
 * caller follows its progress and reads its per-item results page by page.
 */
export const JOB_KINDS = [
  'BULK_INVITATIONS',
  'HOSPITAL_DEACTIVATION',
  'HOSPITAL_RESTORE',
  'DATASET_EXPORT',
  'AUDIT_VERIFICATION',
  'DICOMWEB_INDEX',
  'AUDIT_EXPORT',
  'RETENTION',
  'REPORT_COUNTERS',
] as const;
export const JobKindSchema = z.enum(JOB_KINDS);
export type JobKind = z.infer<typeof JobKindSchema>;

export const JOB_STATUSES = ['QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED'] as const;
export const JobStatusSchema = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof JobStatusSchema>;

export const JobSchema = z.object({
  id: IdSchema,
  kind: JobKindSchema,
  /** The hospital the work is about (the caller's own, or the one a super admin deactivates). */
  hospitalId: IdSchema,
  status: JobStatusSchema,
  /** Items to do, when known at the start (the rows of a bulk request); null while a walk is still counting. */
  total: z.number().int().nonnegative().nullable(),
  processed: z.number().int().nonnegative(),
  succeeded: z.number().int().nonnegative(),
  /** Items REFUSED or FAILED. */
  failed: z.number().int().nonnegative(),
  createdAt: z.string(),
  updatedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** The catalogue code of what stopped a FAILED job. */
  error: z.string().nullable(),
});
export type Job = z.infer<typeof JobSchema>;

/** The answer of a route that starts a job: 202 with the job as it was queued. */
export const JobAcceptedSchema = z.object({ jobId: IdSchema, job: JobSchema });
export type JobAccepted = z.infer<typeof JobAcceptedSchema>;

/**
 * SUCCEEDED: done; SKIPPED: nothing to do (an invited user has no identity to disable); REFUSED: a rule refused it
 * (the catalogue's reason, e.g. an e-mail already invited); FAILED: it broke (INTERNAL).
 */
export const JOB_ITEM_OUTCOMES = ['SUCCEEDED', 'SKIPPED', 'REFUSED', 'FAILED'] as const;
export const JobItemOutcomeSchema = z.enum(JOB_ITEM_OUTCOMES);
export type JobItemOutcome = z.infer<typeof JobItemOutcomeSchema>;

/** One item's result: its position (1-based row of a bulk request), what it was about and how it ended. */
export const JobResultSchema = z.object({
  seq: z.number().int().positive(),
  /** The row's e-mail, or the user's id. */
  subject: z.string(),
  outcome: JobItemOutcomeSchema,
  /** The catalogue code of a refusal or failure. */
  code: z.string().nullable(),
  /** The refusal's reason in the catalogue's words. */
  reason: z.string().nullable(),
  /** What the item made (the invitation's id). */
  ref: z.string().nullable(),
});
export type JobResult = z.infer<typeof JobResultSchema>;

export const JobResultPageSchema = pageOf(JobResultSchema);
export type JobResultPage = z.infer<typeof JobResultPageSchema>;

export const JOB_RESULTS_PAGE_MAX = 500;
export const JobResultsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(JOB_RESULTS_PAGE_MAX).default(100),
  nextToken: z.string().max(2000).optional(),
});
export type JobResultsQuery = z.infer<typeof JobResultsQuerySchema>;
