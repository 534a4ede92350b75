import { z } from 'zod';
import { AUDIT_OUTCOMES } from '#shared/vocabulary/audit.ts';

/**
 * What a function sends the audit appender, the one writer of the audit trail (docs/domain.md#audit-trail): an event
 * to append (with, for a dataset status change, the update written in the same transaction), or the outcome of a
 * verification kept on the chain's head. Parsed on both sides: the appender trusts nothing it is sent.
 */
const AuditEntrySchema = z.object({
  hospitalId: z.string().min(1),
  datasetId: z.string().min(1).optional(),
  targetUserId: z.string().min(1).optional(),
  at: z.string().min(1).optional(),
  action: z.string().min(1),
  outcome: z.enum(AUDIT_OUTCOMES).optional(),
  actorUserId: z.string().min(1),
  actorName: z.string(),
  details: z.record(z.string(), z.unknown()),
});

/** An UpdateItem input (document client shape) that goes with the append. */
const AlongsideUpdateSchema = z.looseObject({
  TableName: z.string().min(1),
  Key: z.record(z.string(), z.unknown()),
  UpdateExpression: z.string().min(1),
});

export const AuditAppendRequestSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('append'), entry: AuditEntrySchema, alongside: AlongsideUpdateSchema.optional() }),
  z.object({
    op: z.literal('recordVerification'),
    hospitalId: z.string().min(1),
    verification: z.object({
      at: z.string().min(1),
      verified: z.boolean(),
      checkedEvents: z.number().int().nonnegative(),
      brokenAtSeq: z.number().int().positive().optional(),
    }),
  }),
]);
export type AuditAppendRequest = z.infer<typeof AuditAppendRequestSchema>;

/** The appender's answer: nothing beyond success (the append and its update are one transaction). */
export const AuditAppendResultSchema = z.object({});
export type AuditAppendResult = z.infer<typeof AuditAppendResultSchema>;
