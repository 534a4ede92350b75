import { z } from 'zod';
import { IdSchema } from './common.ts';
import { MaxOpensSchema, PatientShareDefaultsSchema, SHARE_SCOPES } from './policies.ts';

/** Team DICOM shares (docs/domain.md#shares): what a colleague may do with a dataset shared with them. */
export const TEAM_SHARE_PERMISSIONS = ['view', 'download', 'export'] as const;
export type TeamSharePermission = (typeof TEAM_SHARE_PERMISSIONS)[number];
/**
 * Reserved until the action it guards exists (docs/roles-and-permissions.md#reserved-permissions). None at present:
 * `export` guards the dataset export (docs/exports.md).
 */
export const RESERVED_TEAM_SHARE_PERMISSIONS = [] as const satisfies readonly TeamSharePermission[];
export type GrantableTeamSharePermission = Exclude<
  TeamSharePermission,
  (typeof RESERVED_TEAM_SHARE_PERMISSIONS)[number]
>;
/** What a new team share may give: the site offers these, the create route refuses anything else (400). */
export const GRANTABLE_TEAM_SHARE_PERMISSIONS = TEAM_SHARE_PERMISSIONS.filter(
  (p): p is GrantableTeamSharePermission => !(RESERVED_TEAM_SHARE_PERMISSIONS as readonly string[]).includes(p),
);

/** A team share waits as PENDING_APPROVAL where the sharing policy asks for approval (docs/domain.md#share-policy). */
export const TEAM_SHARE_STATUSES = ['ACTIVE', 'PENDING_APPROVAL'] as const;

export const TeamShareSchema = z.object({
  id: z.string(),
  datasetId: z.string(),
  /** The team whose dataset it is. */
  sourceTeamId: z.string().nullable(),
  recipientType: z.enum(['USER', 'TEAM']),
  recipientId: z.string(),
  recipientName: z.string(),
  permissions: z.array(z.enum(TEAM_SHARE_PERMISSIONS)),
  createdByUserId: z.string(),
  createdByName: z.string(),
  createdAt: z.string(),
  /** Absent on shares stored before approvals existed: they are ACTIVE. */
  status: z.enum(TEAM_SHARE_STATUSES).optional(),
});
export type TeamShare = z.infer<typeof TeamShareSchema>;

/** POST /api/datasets/{id}/team-shares: chosen members of the dataset's team, or another team of the hospital. */
export const CreateTeamShareSchema = z
  .object({
    memberIds: z.array(IdSchema).max(50).optional(),
    teamId: IdSchema.optional(),
    permissions: z
      .array(z.enum(GRANTABLE_TEAM_SHARE_PERMISSIONS))
      .min(1, 'At least one permission is required')
      .max(GRANTABLE_TEAM_SHARE_PERMISSIONS.length),
  })
  .strict()
  .refine((b) => (b.memberIds?.length ?? 0) > 0 || b.teamId !== undefined, {
    message: 'Choose members or a team',
    path: ['memberIds'],
  })
  .meta({
    anyOf: [{ required: ['memberIds'], properties: { memberIds: { minItems: 1 } } }, { required: ['teamId'] }],
    // Checked against the dataset when it is shared (docs/api-contract.md#rules-between-fields).
    'x-rules': [
      "memberIds name members of the dataset's team other than its owner",
      "teamId names another active team of the hospital than the dataset's",
    ],
  });

export const TeamShareListSchema = z.object({ items: z.array(TeamShareSchema) });

/**
 * Patient share status (docs/states.md#patient-share): the server moves it. PENDING_APPROVAL waits for a team lead or
 * hospital admin (the link does not open); REFUSED is what an approver's refusal leaves, final like REVOKED.
 */
export const PATIENT_SHARE_STATUSES = [
  'PENDING_APPROVAL',
  'ACTIVE',
  'EXPIRED',
  'REVOKED',
  'EXHAUSTED',
  'REFUSED',
] as const;
export type PatientShareStatus = (typeof PATIENT_SHARE_STATUSES)[number];

/** Patient share (docs/domain.md#patient-shares); the link's token is never stored, so it is never listed. */
export const PatientShareSchema = z.object({
  id: z.string(),
  datasetId: z.string(),
  createdByUserId: z.string(),
  createdByName: z.string(),
  patientAlias: z.string(),
  recipientEmail: z.string().nullable(),
  recipientPhone: z.string().nullable(),
  otpRequired: z.boolean(),
  expiresAt: z.string(),
  /** -1 = unlimited. */
  maxOpens: z.number().int(),
  opens: z.number().int().nonnegative(),
  allowExport: z.boolean(),
  watermark: z.boolean(),
  scopes: z.array(z.enum(SHARE_SCOPES)),
  status: z.enum(PATIENT_SHARE_STATUSES),
  createdAt: z.string(),
  /** Set while wrong codes keep the link locked. */
  lockedUntil: z.string().nullable(),
});
export type PatientShare = z.infer<typeof PatientShareSchema>;

const PhoneSchema = z
  .string()
  .trim()
  // Trimmed first, so it ends with a digit: the pattern says so, and a phone with trailing spaces is read trimmed.
  .regex(/^\+[1-9][0-9 ]{5,17}[0-9]$/, 'Please enter a valid phone number');

export const CreatePatientShareSchema = z
  .object({
    recipientEmail: z.string().trim().email('Please enter a valid email address').max(254).optional(),
    recipientPhone: PhoneSchema.optional(),
    /** One of the hospital's expiry options, or a custom number of hours. */
    expiresInHours: z
      .number()
      .int()
      .min(1)
      .max(24 * 365),
    maxOpens: MaxOpensSchema,
    watermark: z.boolean(),
    allowDownloads: z.boolean(),
    scopes: z.array(z.enum(SHARE_SCOPES)).min(1).max(SHARE_SCOPES.length),
  })
  .strict()
  .refine((b) => b.recipientEmail !== undefined || b.recipientPhone !== undefined, {
    message: 'Enter an e-mail address or a phone number',
    path: ['recipientEmail'],
  })
  .meta({ anyOf: [{ required: ['recipientEmail'] }, { required: ['recipientPhone'] }] });
export type CreatePatientShare = z.infer<typeof CreatePatientShareSchema>;

/** The create answer: the only time the link (with its token) is shown; the QR code is drawn from it. */
export const CreatedPatientShareSchema = z.object({ share: PatientShareSchema, link: z.string() });
/** The dataset's patient shares, and the policy in force for its team: the share form's defaults and limits. */
export const PatientShareListSchema = z.object({
  items: z.array(PatientShareSchema),
  limits: PatientShareDefaultsSchema,
});

export const SHARE_ACCESS_EVENTS = ['CODE_SENT', 'WRONG_CODE', 'LOCKED', 'OPENED', 'DOWNLOAD'] as const;
export type ShareAccessEventType = (typeof SHARE_ACCESS_EVENTS)[number];
export const ShareAccessEventSchema = z.object({
  id: z.string(),
  shareId: z.string(),
  type: z.enum(SHARE_ACCESS_EVENTS),
  at: z.string(),
  /** Coarse client: the network (first three octets) and the browser family, never the full address. */
  client: z.string(),
});
export type ShareAccessEvent = z.infer<typeof ShareAccessEventSchema>;
export const ShareAccessLogSchema = z.object({ items: z.array(ShareAccessEventSchema) });

/** Public patient routes: the token is the link's secret; the session is issued by a verified code. */
const TokenSchema = z
  .string()
  .min(20)
  .max(128)
  .regex(/^[A-Za-z0-9_-]+$/, 'Invalid input');
export const RequestShareCodeSchema = z.object({ token: TokenSchema }).strict();
export const RequestShareCodeResultSchema = z.object({
  otpRequired: z.boolean(),
  /** Where the code went, masked (e.g. "j***@example.org"); null when no code is needed. */
  sentTo: z.string().nullable(),
});
export const VerifyShareCodeSchema = z
  .object({
    token: TokenSchema,
    code: z
      .string()
      .regex(/^[0-9]{6}$/, 'Enter the 6-digit code')
      .optional(),
  })
  .strict();
export const PatientSessionSchema = z.object({
  session: z.string(),
  expiresAt: z.string(),
  shareId: z.string(),
  /** Study type and date only: no patient data on the public page beyond the images. */
  studyType: z.string(),
  studyDate: z.string(),
  watermark: z.string().nullable(),
  scopes: z.array(z.enum(SHARE_SCOPES)),
  allowDownloads: z.boolean(),
});
export type PatientSession = z.infer<typeof PatientSessionSchema>;
export const PatientStudyRequestSchema = z.object({ session: TokenSchema }).strict();
export const PatientStudySchema = z.object({
  assets: z.array(
    z.object({
      id: z.string(),
      type: z.string(),
      name: z.string(),
      /**
       * What the viewer loads: a volume's copy marked for the share, never an original (docs/domain.md#patient-shares);
       * a download is fetched marked through the download route instead.
       */
      url: z.string().optional(),
      downloadable: z.boolean(),
    }),
  ),
  /** The URLs stop working after this; the page asks again through its session. */
  urlsExpireAt: z.string(),
});
export const PatientDownloadSchema = z.object({ session: TokenSchema, assetId: IdSchema }).strict();

/**
 * A share waiting for approval (docs/domain.md#share-policy): the approval queue of a team lead (their team's
 * datasets) or a hospital admin (every one of the hospital). Its id is the share's.
 */
export const ShareApprovalSchema = z.object({
  id: z.string(),
  kind: z.enum(['TEAM', 'PATIENT']),
  datasetId: z.string(),
  /** The dataset's team: its lead approves. */
  teamId: z.string().nullable(),
  /** A member's or team's name, or the patient's e-mail address or phone number. */
  recipient: z.string(),
  /** Team shares: what the recipient would get. */
  permissions: z.array(z.enum(TEAM_SHARE_PERMISSIONS)).optional(),
  requestedByUserId: z.string(),
  requestedByName: z.string(),
  requestedAt: z.string(),
});
export type ShareApproval = z.infer<typeof ShareApprovalSchema>;
export const ShareApprovalListSchema = z.object({ items: z.array(ShareApprovalSchema) });
/** The answer of approve and refuse: the request as it was and what became of it. */
export const ShareDecisionSchema = z.object({
  approval: ShareApprovalSchema,
  decision: z.enum(['APPROVED', 'REFUSED']),
});
export type ShareDecision = z.infer<typeof ShareDecisionSchema>;
