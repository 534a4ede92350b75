import { z } from 'zod';
import { IdSchema } from './common.ts';
import { SubscriptionPlanSchema } from './organisation.ts';

/** GET /api/usage: a hospital admin's own hospital; the super admin one hospital (?hospitalId) or all. */
export const UsageQuerySchema = z.object({
  hospitalId: IdSchema.optional(),
  /** yyyy-mm; the current month when absent. */
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Invalid input')
    .optional(),
});
export type UsageQuery = z.infer<typeof UsageQuerySchema>;

/** docs/domain.md#usage-and-billing: over 100 overage, over 85 warning, over 60 good, otherwise excellent. */
export const USAGE_HEALTH = ['excellent', 'good', 'warning', 'overage'] as const;
export const UsageHealthSchema = z.enum(USAGE_HEALTH);
export type UsageHealth = z.infer<typeof UsageHealthSchema>;
export const USAGE_BADGES = ['Overage Detected', 'Approaching Limits', 'Healthy Usage'] as const;

const Meter = z.object({
  used: z.number().nonnegative(),
  limit: z.number().nonnegative(),
  percent: z.number().nonnegative(),
  health: UsageHealthSchema,
});

const UsageDaySchema = z.object({
  day: z.string(),
  runs: z.number().nonnegative(),
  computeSeconds: z.number().nonnegative(),
  gbSeconds: z.number().nonnegative(),
  /** Sign-ins begun and completed that day (docs/domain.md#failed-sign-ins); counted in the same daily record. */
  signInAttempts: z.number().int().nonnegative(),
  signIns: z.number().int().nonnegative(),
  /** Net bytes added to storage that day (negative when more was deleted). */
  storageBytesAdded: z.number(),
});

export const InvoiceSchema = z.object({
  number: z.string(),
  hospitalId: z.string(),
  hospitalName: z.string(),
  month: z.string(),
  plan: SubscriptionPlanSchema.nullable(),
  pricePerUser: z.number().nonnegative(),
  users: z.number().int().nonnegative(),
  amount: z.number().nonnegative(),
  issuedAt: z.string(),
  dueDate: z.string(),
});
export type Invoice = z.infer<typeof InvoiceSchema>;

export const HospitalUsageSchema = z.object({
  hospitalId: z.string(),
  hospitalName: z.string(),
  plan: SubscriptionPlanSchema.nullable(),
  /** Storage in bytes against the storage cap (bytes); compute in run-seconds against the run slots' capacity. */
  storage: Meter,
  compute: Meter.extend({ gbSeconds: z.number().nonnegative(), runs: z.number().nonnegative() }),
  badge: z.enum(USAGE_BADGES),
  days: z.array(UsageDaySchema),
  teams: z.array(
    z.object({
      teamId: z.string(),
      teamName: z.string(),
      storageUsedBytes: z.number().nonnegative(),
      days: z.array(UsageDaySchema),
    }),
  ),
  nextBillDate: z.string(),
  daysToNextBill: z.number().int().nonnegative(),
  invoice: InvoiceSchema,
});
export type HospitalUsage = z.infer<typeof HospitalUsageSchema>;

export const UsageSchema = z.object({
  month: z.string(),
  generatedAt: z.string(),
  hospitals: z.array(HospitalUsageSchema),
});
export type Usage = z.infer<typeof UsageSchema>;
