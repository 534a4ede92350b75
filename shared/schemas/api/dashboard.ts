import { z } from 'zod';
import { ROLES } from '#shared/vocabulary/roles.ts';
import { DATASET_STATUSES, STUDY_TYPES } from '#shared/vocabulary/datasets.ts';
import { SubscriptionPlanSchema, HospitalStatusSchema } from './organisation.ts';

const Count = z.number().int().nonnegative();

/** One stat card: the product's label, a figure and how to show it (docs/screens.md#dashboard). */
export const DashboardStatSchema = z.object({
  label: z.string(),
  value: z.number().nonnegative(),
  format: z.enum(['count', 'bytes', 'dollars']),
  subtitle: z.string().optional(),
});
export type DashboardStat = z.infer<typeof DashboardStatSchema>;

export const PipelineFiguresSchema = z.object({
  queued: Count,
  processing: Count,
  completed: Count,
  failed: Count,
  total: Count,
});
export type PipelineFigures = z.infer<typeof PipelineFiguresSchema>;

export const DashboardActivitySchema = z.object({
  id: z.string(),
  at: z.string(),
  user: z.string(),
  action: z.string(),
  datasetId: z.string().optional(),
});
export type DashboardActivity = z.infer<typeof DashboardActivitySchema>;

export const DashboardJobSchema = z.object({
  id: z.string(),
  studyType: z.enum(STUDY_TYPES),
  status: z.enum(DATASET_STATUSES),
  ownerName: z.string(),
  updatedAt: z.string(),
});

export const DashboardMemberSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  status: z.string(),
  lastLogin: z.string().nullable(),
});

export const DashboardHospitalRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  location: z.string(),
  plan: SubscriptionPlanSchema.nullable(),
  users: Count,
  patients: Count,
  revenue: z.number().nonnegative(),
  status: HospitalStatusSchema,
});

/** GET /api/dashboard: every figure from counters kept as data changes, never from listing datasets. */
export const DashboardSchema = z.object({
  role: z.enum(ROLES),
  stats: z.array(DashboardStatSchema),
  /** Datasets per pipeline group (absent for roles that see no datasets). */
  pipeline: PipelineFiguresSchema.nullable(),
  /** Team lead: up to 3 datasets in the pipeline, and how many more there are. */
  currentJobs: z.array(DashboardJobSchema),
  moreJobs: Count,
  recentActivity: z.array(DashboardActivitySchema),
  teamActivity: z.array(DashboardActivitySchema),
  members: z.array(DashboardMemberSchema),
  hospitals: z.array(DashboardHospitalRowSchema),
});
export type Dashboard = z.infer<typeof DashboardSchema>;
