import { z } from 'zod';

/**
 * What a function sends the audit appender, the one writer of the audit chain (docs/domain.md#audit-trail): the
 * outcome of a verification kept on the chain's head, or a request to chain what is pending for a hospital now.
 * Events themselves never travel this way: a request writes its event as a pending item, and the table's stream
 * brings it to the appender (docs/domain.md#how-an-event-travels). Parsed on both sides: the appender trusts nothing
 * it is sent.
 */
export const AuditAppendRequestSchema = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('recordVerification'),
    hospitalId: z.string().min(1),
    verification: z.object({
      at: z.string().min(1),
      verified: z.boolean(),
      checkedEvents: z.number().int().nonnegative(),
      brokenAtSeq: z.number().int().positive().optional(),
      verifiedSeq: z.number().int().nonnegative().optional(),
      verifiedHash: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .optional(),
    }),
  }),
  // Chains what is pending for the hospital now (a verification asks before it walks the chain).
  z.object({ op: z.literal('drain'), hospitalId: z.string().min(1) }),
]);
export type AuditAppendRequest = z.infer<typeof AuditAppendRequestSchema>;

/** The appender's answer: how many events a drain chained (nothing for a verification's outcome). */
export const AuditAppendResultSchema = z.object({ chained: z.number().int().nonnegative().optional() });
export type AuditAppendResult = z.infer<typeof AuditAppendResultSchema>;

/**
 * The part of a DynamoDB stream event the appender reads (Lambda's DynamoDB event source, NEW_IMAGE view): the new
 * item's `entity` and `hospitalId`, in the stream's attribute-value form. Records of other items are passed over.
 */
export const AuditStreamEventSchema = z.object({
  Records: z.array(
    z.object({
      eventName: z.string().optional(),
      dynamodb: z
        .object({
          NewImage: z
            .looseObject({
              entity: z.object({ S: z.string() }).optional(),
              hospitalId: z.object({ S: z.string().min(1) }).optional(),
            })
            .optional(),
        })
        .optional(),
    }),
  ),
});
export type AuditStreamEvent = z.infer<typeof AuditStreamEventSchema>;
