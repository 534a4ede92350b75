import { z } from 'zod';
import { IdSchema, pageOf, pageTokenSchema, queryNumber } from './common.ts';
import { ExportDownloadSchema } from './exports.ts';
import { JobSchema } from './jobs.ts';

/** Outcomes of an audited request (docs/domain.md#audit-trail). */
export const AuditOutcomeSchema = z.enum(['SUCCESS', 'DENIED', 'FAILURE']);

/** A day (yyyy-mm-dd) or an ISO-8601 UTC time: the bounds of an audit search's period. */
const TimeBoundSchema = z.union([z.iso.date(), z.iso.datetime(), z.iso.datetime({ precision: -1 })], {
  error: 'Invalid input',
});

/** Filters of the audit log (search and CSV export); the super admin names the hospital, others get their own. */
export const AuditFilterSchema = z.object({
  hospitalId: IdSchema.optional(),
  actor: IdSchema.optional(),
  /** A dataset id or a user id the events are about. */
  target: IdSchema.optional(),
  action: z
    .string()
    .regex(/^[A-Z_]{1,64}$/, 'Invalid input')
    .optional(),
  from: TimeBoundSchema.optional(),
  to: TimeBoundSchema.optional(),
});
export type AuditFilter = z.infer<typeof AuditFilterSchema>;

export const AUDIT_PAGE_SIZES = [25, 50, 100] as const;
export const ListAuditQuerySchema = AuditFilterSchema.extend({
  limit: queryNumber(z.number().int().min(1).max(100).default(50)),
  nextToken: pageTokenSchema(4096).optional(),
});
export type ListAuditQuery = z.infer<typeof ListAuditQuerySchema>;

export const AuditLogEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  action: z.string(),
  outcome: AuditOutcomeSchema,
  actorUserId: z.string(),
  actorName: z.string(),
  datasetId: z.string().optional(),
  targetUserId: z.string().optional(),
  details: z.record(z.string(), z.unknown()),
  /** Position in the hospital's chain (absent on events written before the chain). */
  seq: z.number().int().optional(),
  hash: z.string().optional(),
});
export type AuditLogEntry = z.infer<typeof AuditLogEntrySchema>;
export const AuditPageSchema = pageOf(AuditLogEntrySchema);

/**
 * A verification walks the chain after the last intact checkpoint; `full` walks it from the first event, so an event
 * changed behind an earlier checkpoint is found too (docs/domain.md#verification).
 */
export const VerifyAuditRequestSchema = z
  .object({ hospitalId: IdSchema.optional(), full: z.boolean().optional() })
  .strict();

/** A full verification as a job (docs/jobs.md): the hospital, for the super admin; the caller's own otherwise. */
export const StartAuditVerificationRequestSchema = z.object({ hospitalId: IdSchema.optional() }).strict();

export const ChainBreakSchema = z.object({
  seq: z.number().int(),
  eventId: z.string().optional(),
  reason: z.enum(['HASH_MISMATCH', 'LINK_MISMATCH', 'MISSING_EVENT', 'HEAD_MISMATCH']),
});

/** The signed digests' part of a verification (docs/domain.md#signed-digests). */
export const DigestVerificationSchema = z.object({
  verified: z.boolean(),
  /** Digests whose signature and link to the one before were checked. */
  checked: z.number().int().nonnegative(),
  /** The newest digest's last position (0: none yet). */
  lastDigestSeq: z.number().int().nonnegative(),
  brokenAt: z
    .object({
      toSeq: z.number().int().nonnegative(),
      reason: z.enum([
        'SIGNATURE_INVALID',
        'DIGEST_LINK_BROKEN',
        'HEAD_HASH_MISMATCH',
        'DIGEST_AHEAD_OF_CHAIN',
        'DIGEST_UNREADABLE',
      ]),
    })
    .optional(),
});

export const VerifyAuditResponseSchema = z.object({
  verified: z.boolean(),
  checkedEvents: z.number().int().nonnegative(),
  brokenAt: ChainBreakSchema.optional(),
  digests: DigestVerificationSchema.optional(),
  at: z.string(),
});
export type VerifyAuditResponse = z.infer<typeof VerifyAuditResponseSchema>;

/** POST /api/audit/exports: the CSV route's filters, as a JSON body. */
export const StartAuditExportRequestSchema = AuditFilterSchema.strict();

/** An audit export as its requester follows it (docs/jobs.md): the job's progress, then the link to the CSV. */
export const AuditExportSchema = z.object({
  id: z.string(),
  /** The hospital whose log it is. */
  hospitalId: z.string(),
  job: JobSchema,
  /** Present once the job SUCCEEDED and while the CSV is kept. */
  download: ExportDownloadSchema.nullable(),
});
export type AuditExport = z.infer<typeof AuditExportSchema>;
