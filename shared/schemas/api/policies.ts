import { z } from 'zod';

/**
 * Policies (docs/domain.md#policies-and-inheritance): the system maximums a super admin sets, each hospital's policy
 * under them and each team's overrides under that. The three levels share one shape; a lower level may only be more
 * restrictive, which shared/domain/settings/resolve.ts checks and resolves field by field.
 */

/** File formats an upload may declare (docs/domain.md#policies-and-inheritance: formats dcm, dicom, nii, nifti). */
export const FILE_FORMATS = ['dcm', 'dicom', 'nii', 'nifti'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];
export const FileFormatSchema = z.enum(FILE_FORMATS);

export const SHARE_SCOPES = ['viewer_only', 'screenshots', 'downloads'] as const;
export type ShareScope = (typeof SHARE_SCOPES)[number];

/** Patient share expiry options in hours (docs/domain.md#policies-and-inheritance): 24 h, 3 days, 7 days, 30 days; Custom is any other value. */
export const SHARE_EXPIRY_OPTIONS = [
  { hours: 24, label: '24 h' },
  { hours: 72, label: '3 days' },
  { hours: 168, label: '7 days' },
  { hours: 720, label: '30 days' },
] as const;
/** Max opens options; -1 = Unlimited. */
export const MAX_OPENS_OPTIONS = [1, 3, 5, 10, -1] as const;
export const UNLIMITED_OPENS = -1;

export const DEFAULT_MEMBER_ROLES = ['TEAM_MEMBER', 'GUEST'] as const;

/** Alert threshold sliders (docs/domain.md#policies-and-inheritance): warning 50-100 step 5; critical from the warning value to 100 step 5. */
export const THRESHOLD_MIN = 50;
export const THRESHOLD_MAX = 100;
export const THRESHOLD_STEP = 5;

const percentStep = z.number().int().min(THRESHOLD_MIN).max(THRESHOLD_MAX).multipleOf(THRESHOLD_STEP, 'Invalid input');

export const AlertThresholdsSchema = z
  .object({ warning: percentStep, critical: percentStep })
  .refine((t) => t.critical >= t.warning, {
    message: `Number must be greater than or equal to the warning value`,
    path: ['critical'],
  })
  // JSON Schema cannot compare two fields: the document names the rule (docs/api-contract.md#rules-between-fields).
  .meta({ 'x-rules': ['critical >= warning'] });

/** Max opens of a patient share: 1 to 1000, or -1 for unlimited (never 0). */
export const MaxOpensSchema = z.union([z.literal(UNLIMITED_OPENS), z.number().int().min(1).max(1000)], {
  error: 'Invalid input',
});

/** The patient-share fields; the hospital's defaults check them together, a team overrides any of them. */
const patientShareFields = z.object({
  requireOTP: z.boolean(),
  defaultExpiryHours: z
    .number()
    .int()
    .min(1)
    .max(24 * 365),
  /** -1 = Unlimited. */
  maxOpens: MaxOpensSchema,
  watermarkEnabled: z.boolean(),
  downloadsEnabled: z.boolean(),
  allowedScopes: z.array(z.enum(SHARE_SCOPES)).max(SHARE_SCOPES.length),
});

export const PatientShareDefaultsSchema = patientShareFields
  .refine((p) => p.downloadsEnabled || !p.allowedScopes.includes('downloads'), {
    message: 'Requires Downloads',
    path: ['allowedScopes'],
  })
  .meta({
    // The scope `downloads` only with downloads enabled.
    if: { properties: { downloadsEnabled: { const: false } } },
    then: { properties: { allowedScopes: { not: { contains: { const: 'downloads' } } } } },
  });
export type PatientShareDefaults = z.infer<typeof PatientShareDefaultsSchema>;

/**
 * The compliance settings of a level. The HIPAA switches are not here: they are the hospital's de-identification
 * policy (docs/domain.md#hipaa-switches); a stored `hipaaToggles` of before is dropped when read (`withoutRetiredFields`).
 */
export const ComplianceSettingsSchema = z.object({
  /** "Block PHI in messages" is always on and required (docs/domain.md#policies-and-inheritance). */
  dlpRules: z.object({ blockPHIInMessages: z.literal(true) }),
});

export const StorageComputeSchema = z.object({
  // Whole or fractional GB from 1 (the form's minimum); a denormal positive number is not a cap a table can store.
  storageCapGB: z.number().min(1).max(10_000_000),
  computeThrottles: z.object({ queueConcurrency: z.number().int().min(1).max(1000) }),
  alertThresholds: AlertThresholdsSchema,
});

export const SecuritySettingsSchema = z
  .object({
    twoFactorRequired: z.boolean(),
    ssoEnabled: z.boolean(),
    ssoDomain: z
      .string()
      .max(253)
      .regex(/^([a-z0-9-]+\.)+[a-z]{2,}$/i, 'Invalid input')
      .optional(),
  })
  .refine((s) => !s.ssoEnabled || !!s.ssoDomain, { message: 'Required', path: ['ssoDomain'] })
  // SSO on needs its domain.
  .meta({ if: { properties: { ssoEnabled: { const: true } } }, then: { required: ['ssoDomain'] } });

/** An e-mail domain as the hospital lists it ("hospital.org"): lower case, no "@". */
export const EmailDomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^([a-z0-9-]+\.)+[a-z]{2,}$/, 'Enter a domain such as hospital.org');
export const MAX_RECIPIENT_DOMAINS = 50;

/** One level's policy: the hospital's, or the system maximums in the same shape. */
export const PolicySchema = z.object({
  dataRetentionDays: z.number().int().min(1).max(36_500),
  maxFileSizeMB: z.number().int().min(1).max(1_000_000),
  allowedFormats: z.array(FileFormatSchema).min(1).max(FILE_FORMATS.length),
  shareWithExternal: z.boolean(),
  requireApproval: z.boolean(),
  allowPublicSharing: z.boolean(),
  /**
   * The hospital's own e-mail domains: while `shareWithExternal` is off a patient share goes only to an address of one
   * of them (docs/domain.md#share-policy). The hospital's alone, not inherited; absent = the domains of its hospital
   * admins' addresses, an empty list = none.
   */
  recipientDomains: z.array(EmailDomainSchema).max(MAX_RECIPIENT_DOMAINS).optional(),
  userAndTeam: z.object({
    autoApproveTeamLeads: z.boolean(),
    defaultMemberRole: z.enum(DEFAULT_MEMBER_ROLES),
  }),
  storageCompute: StorageComputeSchema,
  patientShare: PatientShareDefaultsSchema,
  compliance: ComplianceSettingsSchema,
  security: SecuritySettingsSchema,
});
export type Policy = z.infer<typeof PolicySchema>;

/**
 * A stored level as it is now: the HIPAA switches of before (`compliance.hipaaToggles`) were flags nothing read; the
 * de-identification policy is what they mean now (docs/domain.md#hipaa-switches), so a stored value is dropped, not
 * carried over (carrying "remove private tags", on by default, would have changed what every upload gets).
 */
export function withoutRetiredFields<T extends { compliance?: object }>(policy: T): T {
  if (!policy.compliance || !('hipaaToggles' in policy.compliance)) return policy;
  const { hipaaToggles: _retired, ...compliance } = policy.compliance as { hipaaToggles?: unknown };
  return { ...policy, compliance };
}

/**
 * What a team may override (docs/domain.md#policies-and-inheritance: team-lead overrides may not be less restrictive than the hospital
 * defaults). Absent fields inherit.
 */
export const TeamPolicyOverridesSchema = z
  .object({
    dataRetentionDays: PolicySchema.shape.dataRetentionDays,
    maxFileSizeMB: PolicySchema.shape.maxFileSizeMB,
    allowedFormats: PolicySchema.shape.allowedFormats,
    shareWithExternal: z.boolean(),
    requireApproval: z.boolean(),
    allowPublicSharing: z.boolean(),
    patientShare: patientShareFields.partial().strict(),
  })
  .partial()
  .strict();
export type TeamPolicyOverrides = z.infer<typeof TeamPolicyOverridesSchema>;

/** Hospital policy defaults (docs/domain.md#policies-and-inheritance: storage and policy defaults, patient share defaults). */
export const DEFAULT_HOSPITAL_POLICY: Policy = {
  dataRetentionDays: 365,
  maxFileSizeMB: 500,
  allowedFormats: ['dcm', 'dicom', 'nii', 'nifti'],
  shareWithExternal: false,
  requireApproval: true,
  allowPublicSharing: false,
  userAndTeam: { autoApproveTeamLeads: false, defaultMemberRole: 'TEAM_MEMBER' },
  storageCompute: {
    storageCapGB: 5120,
    computeThrottles: { queueConcurrency: 10 },
    alertThresholds: { warning: 80, critical: 90 },
  },
  patientShare: {
    requireOTP: true,
    defaultExpiryHours: 168,
    maxOpens: 3,
    watermarkEnabled: true,
    downloadsEnabled: false,
    allowedScopes: ['viewer_only', 'screenshots'],
  },
  compliance: {
    dlpRules: { blockPHIInMessages: true },
  },
  security: { twoFactorRequired: false, ssoEnabled: false },
};

/**
 * System maximums until a super admin says otherwise: the product's settings defaults (queue size 10, max upload
 * 2048 MB, storage retention 365 days) and storage cap; every permission allowed and nothing required, so each
 * hospital decides below them.
 */
export const DEFAULT_SYSTEM_POLICY: Policy = {
  dataRetentionDays: 365,
  maxFileSizeMB: 2048,
  allowedFormats: ['dcm', 'dicom', 'nii', 'nifti'],
  shareWithExternal: true,
  requireApproval: false,
  allowPublicSharing: true,
  userAndTeam: { autoApproveTeamLeads: true, defaultMemberRole: 'TEAM_MEMBER' },
  storageCompute: {
    storageCapGB: 5120,
    computeThrottles: { queueConcurrency: 10 },
    alertThresholds: { warning: 80, critical: 90 },
  },
  patientShare: {
    requireOTP: false,
    defaultExpiryHours: 720,
    maxOpens: UNLIMITED_OPENS,
    watermarkEnabled: false,
    downloadsEnabled: true,
    allowedScopes: ['viewer_only', 'screenshots', 'downloads'],
  },
  compliance: {
    dlpRules: { blockPHIInMessages: true },
  },
  security: { twoFactorRequired: false, ssoEnabled: false },
};

const updatedFields = { updatedAt: z.string().nullable(), updatedByUserId: z.string().nullable() };

/** GET/PUT /api/system/policy */
export const SystemPolicyResponseSchema = z.object({ policy: PolicySchema, ...updatedFields });
export type SystemPolicyResponse = z.infer<typeof SystemPolicyResponseSchema>;
export const PutSystemPolicyRequestSchema = z.object({ policy: PolicySchema });

/** Hospital profile (settings) with the product's validation messages (docs/domain.md#validation-rules). */
export const HospitalProfileSchema = z.object({
  name: z.string().trim().min(2, 'Hospital name must be at least 2 characters').max(200),
  email: z.email('Invalid email address').max(254),
  phone: z.string().trim().min(10, 'Phone number must be at least 10 digits').max(40),
  address: z.string().trim().min(10, 'Address must be at least 10 characters').max(500),
  billingContact: z.email('Invalid billing contact email').max(254),
});
export type HospitalProfile = z.infer<typeof HospitalProfileSchema>;

/** GET /api/hospital-admin/settings: profile, the hospital's own policy, the ceiling above it and storage in use. */
export const HospitalSettingsSchema = z.object({
  profile: HospitalProfileSchema.partial().extend({ name: z.string() }),
  policy: PolicySchema,
  system: PolicySchema,
  storageUsedBytes: z.number().nonnegative(),
  ...updatedFields,
});
export type HospitalSettings = z.infer<typeof HospitalSettingsSchema>;
export const PutHospitalSettingsRequestSchema = z.object({ profile: HospitalProfileSchema, policy: PolicySchema });
export type PutHospitalSettingsRequest = z.infer<typeof PutHospitalSettingsRequestSchema>;

/** GET/PUT /api/teams/{teamId}/policy: the overrides and the policy the team gets after them. */
export const TeamPolicyResponseSchema = z.object({
  overrides: TeamPolicyOverridesSchema,
  inherited: PolicySchema,
  effective: PolicySchema,
  ...updatedFields,
});
export type TeamPolicyResponse = z.infer<typeof TeamPolicyResponseSchema>;
export const PutTeamPolicyRequestSchema = z.object({ overrides: TeamPolicyOverridesSchema });

/** Notification preferences (docs/domain.md#policies-and-inheritance) with the product's defaults (docs/domain.md#settings). */
export const NOTIFICATION_FREQUENCIES = ['immediate', 'daily', 'weekly'] as const;
export const NotificationPreferencesSchema = z.strictObject({
  email: z.boolean(),
  push: z.boolean(),
  sms: z.boolean(),
  frequency: z.enum(NOTIFICATION_FREQUENCIES),
  usageThresholds: z.boolean(),
  billingAlerts: z.boolean(),
  complianceAlerts: z.boolean(),
  teamActivity: z.boolean(),
  securityEvents: z.boolean(),
});
export type NotificationPreferences = z.infer<typeof NotificationPreferencesSchema>;
export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = {
  email: true,
  push: true,
  sms: false,
  frequency: 'immediate',
  usageThresholds: true,
  billingAlerts: true,
  complianceAlerts: true,
  teamActivity: false,
  securityEvents: true,
};

/** Avatar limits (docs/domain.md#policies-and-inheritance): 2 MB, JPG, GIF or PNG. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const AVATAR_TYPES = ['image/jpeg', 'image/gif', 'image/png'] as const;

/** GET/PUT /api/me/profile */
export const UserProfileSchema = z.object({
  firstName: z.string().trim().min(1, 'Required').max(100),
  lastName: z.string().trim().min(1, 'Required').max(100),
  phone: z.string().trim().max(40).optional(),
  specialization: z.string().trim().max(200).optional(),
});
export type UserProfile = z.infer<typeof UserProfileSchema>;
/** PUT /api/me/profile: the fields sent change, the others stay. */
export const UpdateUserProfileRequestSchema = UserProfileSchema.partial();
export type UpdateUserProfileRequest = z.infer<typeof UpdateUserProfileRequestSchema>;
export const UserProfileResponseSchema = UserProfileSchema.extend({
  email: z.string(),
  /** Presigned GET of the avatar, short-lived; null without one. */
  avatarUrl: z.string().nullable(),
});
export type UserProfileResponse = z.infer<typeof UserProfileResponseSchema>;

/** POST /api/me/avatar: the browser PUTs the image to `uploadUrl` with that content type, then it is the avatar. */
export const AvatarUploadRequestSchema = z.object({
  contentType: z.enum(AVATAR_TYPES),
  sizeBytes: z.number().int().positive(),
});
export const AvatarUploadResponseSchema = z.object({ uploadUrl: z.string(), expiresInSeconds: z.number().int() });
