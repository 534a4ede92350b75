import { z } from 'zod';
import { GrantablePermissionSchema, PermissionGrantSchema, RoleSchema } from '#shared/schemas/roles.ts';
import { UserStatusSchema } from './auth.ts';
import { IdSchema, pageOf, pageTokenSchema, queryNumber } from './common.ts';
import { JobSchema } from './jobs.ts';

/**
 * Contracts of the organisation: hospitals (super admin), departments, teams and users (hospital admin, team lead).
 * Field names and validation messages follow docs/screens.md and docs/domain.md; one schema per contract, shared by
 * the site's forms and the handlers.
 */

// ---------------------------------------------------------------- hospitals

export const SUBSCRIPTION_PLANS = ['TRIAL', 'BASIC', 'PRO', 'ENTERPRISE'] as const;
export const SubscriptionPlanSchema = z.enum(SUBSCRIPTION_PLANS);
export type SubscriptionPlan = z.infer<typeof SubscriptionPlanSchema>;

/** Price per user per month, in dollars (docs/domain.md#plans): revenue = price x users. */
export const PLAN_PRICE_PER_USER: Record<SubscriptionPlan, number> = { ENTERPRISE: 50, PRO: 25, BASIC: 15, TRIAL: 0 };
/** What the Add Hospital wizard shows for each plan. */
export const PLAN_LABELS: Record<SubscriptionPlan, { name: string; price: string }> = {
  TRIAL: { name: 'Trial', price: 'Free for 30 days' },
  BASIC: { name: 'Basic', price: '$99/month' },
  PRO: { name: 'Pro', price: '$299/month' },
  ENTERPRISE: { name: 'Enterprise', price: '$999/month' },
};

export const COUNTRIES = ['US', 'CA', 'UK'] as const;
export const TIMEZONES = ['America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles'] as const;

/** ACTIVE, or DEACTIVATED by a (soft) delete: its users cannot sign in or call the API; data stays; restorable. */
export const HospitalStatusSchema = z.enum(['ACTIVE', 'DEACTIVATED']);
export type HospitalStatus = z.infer<typeof HospitalStatusSchema>;

const requiredText = (min = 1) => z.string().trim().min(min, 'Required');
/** An e-mail field: trimmed, then checked, with the form's own message. */
export const emailField = (message = 'Invalid email address') => z.string().trim().pipe(z.email(message));

/** Step 1 of Add Hospital, and the Edit Hospital modal (the same six required fields). */
export const HospitalDetailsSchema = z.object({
  name: z.string().trim().min(2, 'Hospital name must be at least 2 characters').max(200),
  email: emailField(),
  phone: z.string().trim().min(10, 'Phone number must be at least 10 digits').max(40),
  addressLine1: requiredText().max(200),
  addressLine2: z.string().trim().max(200).optional(),
  city: requiredText().max(100),
  state: requiredText().max(100),
  country: z.enum(COUNTRIES).default('US'),
  timezone: z.enum(TIMEZONES).default('America/New_York'),
  website: z
    .string()
    .trim()
    .pipe(z.url('Invalid url'))
    .optional()
    .or(z.literal('').transform(() => undefined)),
  description: z.string().trim().max(1000).optional(),
  specialization: z.array(z.string().trim().min(1).max(100)).max(20).optional(),
});
export type HospitalDetails = z.infer<typeof HospitalDetailsSchema>;

/** Step 3 of Add Hospital: the first hospital admin, invited by e-mail. */
export const HospitalFirstAdminSchema = z.object({
  adminFirstName: requiredText().max(100),
  adminLastName: requiredText().max(100),
  adminEmail: emailField(),
  adminPhone: z.string().trim().max(40).optional(),
});

export const CreateHospitalRequestSchema = HospitalDetailsSchema.extend({
  subscriptionPlan: SubscriptionPlanSchema.default('PRO'),
  ...HospitalFirstAdminSchema.shape,
});
export type CreateHospitalRequest = z.infer<typeof CreateHospitalRequestSchema>;

export const UpdateHospitalRequestSchema = HospitalDetailsSchema.extend({
  subscriptionPlan: SubscriptionPlanSchema.optional(),
});
export type UpdateHospitalRequest = z.infer<typeof UpdateHospitalRequestSchema>;

/** Delete = deactivate. The typed name must equal the hospital's name; with users or datasets, `acknowledgeImpact`. */
export const DeleteHospitalRequestSchema = z.object({
  confirmName: z.string(),
  acknowledgeImpact: z.boolean().default(false),
});
export type DeleteHospitalRequest = z.infer<typeof DeleteHospitalRequestSchema>;

export const HospitalSchema = z.object({
  id: IdSchema,
  slug: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  addressLine1: z.string().nullable(),
  addressLine2: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  country: z.string().nullable(),
  timezone: z.string().nullable(),
  website: z.string().nullable(),
  description: z.string().nullable(),
  specialization: z.array(z.string()),
  subscriptionPlan: SubscriptionPlanSchema,
  status: HospitalStatusSchema,
  /** Users of the hospital that are ACTIVE or INVITED (disabled ones are not billed). */
  userCount: z.number().int().nonnegative(),
  datasetCount: z.number().int().nonnegative(),
  /** plan price x userCount, dollars per month. */
  monthlyRevenue: z.number().nonnegative(),
  createdAt: z.string(),
  updatedAt: z.string(),
  deactivatedAt: z.string().nullable(),
});
export type Hospital = z.infer<typeof HospitalSchema>;

/**
 * Deactivation and restore answer 202 with the hospital as it is now (its status flipped at once) and the job that
 * disables or enables its users' identities and its DICOMweb clients (docs/jobs.md).
 */
export const HospitalWithJobSchema = HospitalSchema.extend({ jobId: IdSchema, job: JobSchema });
export type HospitalWithJob = z.infer<typeof HospitalWithJobSchema>;

export const ListHospitalsQuerySchema = z.object({
  /** Name or city, case-insensitive. */
  q: z.string().trim().max(100).optional(),
  plan: SubscriptionPlanSchema.optional(),
  status: HospitalStatusSchema.optional(),
  limit: queryNumber(z.number().int().min(1).max(100).default(24)),
  nextToken: pageTokenSchema(2048).optional(),
});
export type ListHospitalsQuery = z.infer<typeof ListHospitalsQuerySchema>;

/** The four summary cards of Hospital Management, computed over every hospital. */
export const HospitalSummarySchema = z.object({
  totalHospitals: z.number().int().nonnegative(),
  /** Plans other than TRIAL, of active hospitals. */
  activeSubscriptions: z.number().int().nonnegative(),
  totalUsers: z.number().int().nonnegative(),
  monthlyRevenue: z.number().nonnegative(),
});
export type HospitalSummary = z.infer<typeof HospitalSummarySchema>;

export const HospitalPageSchema = pageOf(HospitalSchema).extend({ summary: HospitalSummarySchema });
export type HospitalPage = z.infer<typeof HospitalPageSchema>;

// ---------------------------------------------------------------- departments

export const DepartmentInputSchema = z.object({
  name: z.string().trim().min(2, 'Department name must be at least 2 characters').max(100),
  description: z.string().trim().max(500).default(''),
});
export type DepartmentInput = z.infer<typeof DepartmentInputSchema>;

export const DepartmentSchema = z.object({
  id: IdSchema,
  hospitalId: IdSchema,
  name: z.string(),
  description: z.string(),
  teamCount: z.number().int().nonnegative(),
  memberCount: z.number().int().nonnegative(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Department = z.infer<typeof DepartmentSchema>;

// ---------------------------------------------------------------- teams

export const TeamSettingsSchema = z.object({
  allowMemberInvitations: z.boolean(),
  dataRetentionDays: z.number().int().min(1).max(3650),
  requireApprovalForDataSharing: z.boolean(),
  allowGuestAccess: z.boolean(),
  defaultPermissions: z.array(GrantablePermissionSchema),
  allowPublicSharing: z.boolean(),
});
export type TeamSettings = z.infer<typeof TeamSettingsSchema>;

export const DEFAULT_TEAM_SETTINGS: TeamSettings = {
  allowMemberInvitations: false,
  dataRetentionDays: 365,
  requireApprovalForDataSharing: true,
  allowGuestAccess: true,
  defaultPermissions: ['VIEW_DATASETS', 'UPLOAD_DICOM', 'SHARE_DATA'],
  allowPublicSharing: false,
};

export const TeamInputSchema = z.object({
  name: z.string().trim().min(2, 'Team name must be at least 2 characters').max(100),
  departmentId: IdSchema,
  leadUserId: IdSchema.nullable().default(null),
  description: z.string().trim().max(500).default(''),
  dataPolicy: z.enum(['shared', 'individual']).default('shared'),
  maxMembers: z.number().int().min(1, 'Number must be greater than 0').max(1000).default(15),
  priority: z.enum(['high', 'medium']).default('medium'),
  tags: z.array(z.string().trim().min(1).max(40)).max(20).default([]),
  settings: TeamSettingsSchema.default(DEFAULT_TEAM_SETTINGS),
});
export type TeamInput = z.infer<typeof TeamInputSchema>;

/** PATCH /api/teams/{teamId}: a hospital admin may change anything; the team's lead only `settings`. */
export const UpdateTeamRequestSchema = z.object({
  name: TeamInputSchema.shape.name.optional(),
  departmentId: IdSchema.optional(),
  leadUserId: IdSchema.nullable().optional(),
  description: z.string().trim().max(500).optional(),
  dataPolicy: z.enum(['shared', 'individual']).optional(),
  maxMembers: z.number().int().min(1, 'Number must be greater than 0').max(1000).optional(),
  priority: z.enum(['high', 'medium']).optional(),
  tags: z.array(z.string().trim().min(1).max(40)).max(20).optional(),
  settings: TeamSettingsSchema.partial().optional(),
});
export type UpdateTeamRequest = z.infer<typeof UpdateTeamRequestSchema>;

export const TeamSchema = z.object({
  id: IdSchema,
  hospitalId: IdSchema,
  name: z.string(),
  departmentId: IdSchema,
  departmentName: z.string(),
  leadUserId: z.string().nullable(),
  leadName: z.string().nullable(),
  description: z.string(),
  dataPolicy: z.enum(['shared', 'individual']),
  maxMembers: z.number().int(),
  priority: z.enum(['high', 'medium']),
  tags: z.array(z.string()),
  settings: TeamSettingsSchema,
  isActive: z.boolean(),
  memberCount: z.number().int().nonnegative(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Team = z.infer<typeof TeamSchema>;

/** Overview stat cards of the team page, computed from data. */
export const TeamStatsSchema = z.object({
  activeMembers: z.number().int().nonnegative(),
  pendingInvites: z.number().int().nonnegative(),
  totalDatasets: z.number().int().nonnegative(),
  storageUsedBytes: z.number().int().nonnegative(),
});
export const TeamDetailSchema = TeamSchema.extend({ stats: TeamStatsSchema });
export type TeamDetail = z.infer<typeof TeamDetailSchema>;

/** The super admin names the hospital whose departments it reads (docs/roles-and-permissions.md). */
export const ListDepartmentsQuerySchema = z.object({ hospitalId: IdSchema.optional() });

export const ListTeamsQuerySchema = z.object({
  hospitalId: IdSchema.optional(),
  departmentId: IdSchema.optional(),
  includeArchived: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  limit: queryNumber(z.number().int().min(1).max(100).default(50)),
  nextToken: pageTokenSchema(2048).optional(),
});
export const TeamPageSchema = pageOf(TeamSchema);

/** Team-level roles and the user roles they are. */
export const TEAM_ROLES = ['LEAD', 'MEMBER', 'GUEST'] as const;
export const TeamRoleSchema = z.enum(TEAM_ROLES);
export type TeamRole = z.infer<typeof TeamRoleSchema>;
export const TEAM_ROLE_TO_USER_ROLE = { LEAD: 'TEAM_LEAD', MEMBER: 'TEAM_MEMBER', GUEST: 'GUEST' } as const;

export const TeamMemberSchema = z.object({
  id: IdSchema,
  role: TeamRoleSchema,
  status: UserStatusSchema,
  permissions: z.array(PermissionGrantSchema),
  lastActive: z.string().nullable(),
  user: z.object({
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    department: z.string().nullable(),
    specialization: z.string().nullable(),
  }),
});
export type TeamMember = z.infer<typeof TeamMemberSchema>;
export const TeamMemberPageSchema = pageOf(TeamMemberSchema);

export const ChangeMemberRoleRequestSchema = z.object({ role: TeamRoleSchema });
export const ChangeMemberPermissionsRequestSchema = z.object({
  permissions: z.array(GrantablePermissionSchema).min(1, 'At least one permission is required'),
});

// ---------------------------------------------------------------- users

export const UserSchema = z.object({
  id: IdSchema,
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string().nullable(),
  role: RoleSchema,
  status: UserStatusSchema,
  hospitalId: IdSchema,
  teamId: z.string().nullable(),
  teamName: z.string().nullable(),
  departmentId: z.string().nullable(),
  department: z.string().nullable(),
  specialization: z.string().nullable(),
  permissions: z.array(PermissionGrantSchema),
  lastLogin: z.string().nullable(),
  createdAt: z.string(),
});
export type User = z.infer<typeof UserSchema>;

export const ListUsersQuerySchema = z.object({
  /** Name or e-mail prefix of any word, case-insensitive. */
  q: z.string().trim().max(100).optional(),
  role: RoleSchema.optional(),
  departmentId: IdSchema.optional(),
  teamId: IdSchema.optional(),
  status: UserStatusSchema.optional(),
  /** Super admin only: whose users. A hospital admin always gets their own hospital. */
  hospitalId: IdSchema.optional(),
  limit: queryNumber(z.number().int().min(1).max(100).default(25)),
  nextToken: pageTokenSchema(2048).optional(),
});
export type ListUsersQuery = z.infer<typeof ListUsersQuerySchema>;
export const UserPageSchema = pageOf(UserSchema);

/** Super admin acting on another hospital's user names it; a hospital admin's own hospital otherwise. */
export const UserScopeQuerySchema = z.object({ hospitalId: IdSchema.optional() });

export const ChangeUserRoleRequestSchema = z.object({
  role: z.enum(['HOSPITAL_ADMIN', 'TEAM_LEAD', 'TEAM_MEMBER', 'GUEST'], { message: 'Please select a role' }),
});
export const MoveUserRequestSchema = z.object({ teamId: IdSchema.nullable() });

// ---------------------------------------------------------------- hospital-admin area

/** Sidebar badges and overview figures of /hospital-admin, computed from data. */
export const HospitalAdminOverviewSchema = z.object({
  hospital: z.object({ id: IdSchema, name: z.string(), subscriptionPlan: SubscriptionPlanSchema }),
  teamsCount: z.number().int().nonnegative(),
  departmentsCount: z.number().int().nonnegative(),
  membersCount: z.number().int().nonnegative(),
  pendingInvitations: z.number().int().nonnegative(),
  datasetsCount: z.number().int().nonnegative(),
  storageUsedBytes: z.number().int().nonnegative(),
});
export type HospitalAdminOverview = z.infer<typeof HospitalAdminOverviewSchema>;
