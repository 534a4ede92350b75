import { z } from 'zod';
import { USER_STATUSES } from '#shared/vocabulary/users.ts';
import { ANONYMIZATION_OPTIONS, HIPAA_TOGGLES } from '#shared/vocabulary/deidentification.ts';
import { DATASET_STATUSES, STUDY_TYPES } from '#shared/vocabulary/datasets.ts';
import { IdSchema, queryNumber } from './common.ts';
import { PATIENT_SHARE_STATUSES } from './shares.ts';
import { DeidentificationPolicyResponseSchema } from './hospital-admin.ts';

/** GET /api/compliance: the hospital's compliance figures, computed from its data when asked. */
export const ComplianceQuerySchema = z.object({ hospitalId: IdSchema.optional() });

const CountOf = <K extends string>(keys: readonly K[]) =>
  z.object(Object.fromEntries(keys.map((k) => [k, z.number().int().nonnegative()])) as Record<K, z.ZodNumber>);

export const ComplianceSchema = z.object({
  hospitalId: z.string(),
  generatedAt: z.string(),
  deidentification: z.object({
    datasets: z.number().int().nonnegative(),
    deidentified: z.number().int().nonnegative(),
    /** Datasets whose de-identified copy does not exist yet (created, uploading) or never will (failed before it). */
    notDeidentified: z.number().int().nonnegative(),
    /** How many de-identified datasets kept each option (an option that is on keeps something the profile removes). */
    optionsRetained: CountOf(ANONYMIZATION_OPTIONS),
    /** De-identified with no option on: the Basic Profile with its clean-descriptor and safe-private defaults. */
    basicProfileOnly: z.number().int().nonnegative(),
    policy: DeidentificationPolicyResponseSchema,
  }),
  burnedInText: z.object({
    seriesHeld: z.number().int().nonnegative(),
    seriesReleased: z.number().int().nonnegative(),
    datasetsWithHeldSeries: z.number().int().nonnegative(),
  }),
  users: z.object({
    total: z.number().int().nonnegative(),
    byStatus: CountOf(USER_STATUSES),
    /** ACTIVE users the API has seen signed in with a second factor since their last two-factor reset. */
    twoFactor: z.number().int().nonnegative(),
  }),
  /** Patient shares of the hospital's datasets by their status as of now (an ACTIVE share past its expiry is EXPIRED). */
  patientShares: CountOf(PATIENT_SHARE_STATUSES),
  /**
   * Password sign-ins over the last `days` days: attempts by known users, those that ended signed in, and the rest
   * (wrong password or code, disabled user, left at the second factor). docs/domain.md#failed-sign-ins.
   */
  signIns: z.object({
    days: z.number().int().positive(),
    attempts: z.number().int().nonnegative(),
    succeeded: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
  }),
  /**
   * The HIPAA switches as the hospital's de-identification policy sets them (docs/domain.md#hipaa-switches) and the
   * two-factor requirement of the policy in force.
   */
  hipaa: z.object({
    toggles: z.object(
      Object.fromEntries(HIPAA_TOGGLES.map((k) => [k, z.boolean()])) as Record<
        (typeof HIPAA_TOGGLES)[number],
        z.ZodBoolean
      >,
    ),
    twoFactorRequired: z.boolean(),
  }),
  auditChain: z.object({
    events: z.number().int().nonnegative(),
    lastVerification: z
      .object({
        at: z.string(),
        verified: z.boolean(),
        checkedEvents: z.number().int().nonnegative(),
        brokenAtSeq: z.number().int().optional(),
      })
      .nullable(),
  }),
});
export type Compliance = z.infer<typeof ComplianceSchema>;

/** Report ranges (docs/screens.md#reports): 3, 6 or 12 months. */
export const REPORT_RANGES = [3, 6, 12] as const;
export const ReportsQuerySchema = z.object({
  hospitalId: IdSchema.optional(),
  months: queryNumber(z.literal(REPORT_RANGES).default(3)),
});
export type ReportsQuery = z.infer<typeof ReportsQuerySchema>;

const ReportMonthSchema = z.object({
  /** yyyy-mm (UTC). */
  month: z.string(),
  studies: z.number().int().nonnegative(),
  byType: CountOf(STUDY_TYPES),
  byStatus: CountOf(DATASET_STATUSES),
  /** Bytes of the studies created that month, and the running total from the start of the range. */
  storageAddedBytes: z.number().nonnegative(),
  storageTotalBytes: z.number().nonnegative(),
  /** Distinct users who created a study that month. */
  activeUsers: z.number().int().nonnegative(),
});

export const ReportsSchema = z.object({
  hospitalId: z.string(),
  months: z.number().int(),
  from: z.string(),
  generatedAt: z.string(),
  totals: z.object({
    studies: z.number().int().nonnegative(),
    storageBytes: z.number().nonnegative(),
    activeUsers: z.number().int().nonnegative(),
  }),
  perMonth: z.array(ReportMonthSchema),
  byTeam: z.array(
    z.object({
      teamId: z.string().nullable(),
      teamName: z.string(),
      studies: z.number().int().nonnegative(),
      completed: z.number().int().nonnegative(),
      failed: z.number().int().nonnegative(),
      /** Studies per month of the range, in the order of `perMonth`. */
      perMonth: z.array(z.number().int().nonnegative()),
    }),
  ),
  /** Minutes from the pipeline taking a study to its completion, over the COMPLETE studies of the range; null without any. */
  processingMinutes: z.object({
    completed: z.number().int().nonnegative(),
    p50: z.number().nullable(),
    p90: z.number().nullable(),
    p99: z.number().nullable(),
  }),
});
export type Reports = z.infer<typeof ReportsSchema>;
