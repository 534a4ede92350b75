import { z } from 'zod';
import { STUDY_TYPES } from '#shared/vocabulary/datasets.ts';

/** The periods of a team's analytics (docs/screens.md#teams-page); the last 30 days unless another is asked for. */
export const ANALYTICS_PERIODS = ['LAST_7_DAYS', 'LAST_30_DAYS', 'LAST_90_DAYS', 'LAST_YEAR'] as const;
export const AnalyticsPeriodSchema = z.enum(ANALYTICS_PERIODS);
export type AnalyticsPeriod = z.infer<typeof AnalyticsPeriodSchema>;

export const TeamAnalyticsQuerySchema = z.object({ period: AnalyticsPeriodSchema.default('LAST_30_DAYS') });

const Count = z.number().int().nonnegative();

/** GET /api/teams/{teamId}/analytics: the team's datasets created in the period, from its report counters (docs/domain.md#report-counters). */
export const TeamAnalyticsSchema = z.object({
  teamId: z.string(),
  period: AnalyticsPeriodSchema,
  /** The first day counted (yyyy-mm-dd, UTC); the period ends today. */
  from: z.string(),
  totalDatasets: Count,
  uploadsCompleted: Count,
  failed: Count,
  storageAddedBytes: z.number().nonnegative(),
  /** Members who signed in during the period, of the team's members. */
  activeMembers: Count,
  members: Count,
  datasetsByType: z.record(z.enum(STUDY_TYPES), Count),
  /** Datasets per creator (under the name they created with), most first. */
  memberActivity: z.array(z.object({ name: z.string(), datasets: Count })),
  /** Datasets per day (per month for the last year), oldest first, every bucket of the period present. */
  timeline: z.array(z.object({ bucket: z.string(), datasets: Count })),
  /** Kept for older clients: the counters hold every dataset of the period, so the answer is never truncated. */
  truncated: z.boolean(),
});
export type TeamAnalytics = z.infer<typeof TeamAnalyticsSchema>;
