import { z } from 'zod';
import { GRANTABLE_PERMISSIONS, type GrantablePermission, type Role } from '#shared/vocabulary/roles.ts';
import { GrantablePermissionSchema, PermissionGrantSchema, RoleSchema } from '#shared/schemas/roles.ts';
import { IdSchema, pageTokenSchema, queryNumber, trimmed } from './common.ts';
import { TeamRoleSchema, type TeamRole } from './organisation.ts';

/**
 * Contracts of joining (docs/domain.md#invitations, docs/screens.md#invitation-center): one schema per contract,
 * parsed by the site's forms and again by the handlers. Messages are the product's words (docs/domain.md#invitations).
 */

/** Invitation expiry in days (hospital invitations); team invitations choose 1 to 30, default 7. */
export const INVITATION_EXPIRY_DAYS = 7;
export const TEAM_INVITATION_EXPIRY_MIN_DAYS = 1;
export const TEAM_INVITATION_EXPIRY_MAX_DAYS = 30;
export const INVITATION_MESSAGE_MAX = 500;
/** Rows of one bulk request; the CSV itself is limited to 5 MB (BULK_CSV_MAX_BYTES). */
export const BULK_INVITATIONS_MAX = 500;
export const BULK_CSV_MAX_BYTES = 5 * 1024 * 1024;

// ---------------------------------------------------------------- roles

/** The roles a hospital admin invites (the Invitation Center). */
export const INVITABLE_ROLES = ['team_lead', 'team_member', 'guest'] as const;
export const InvitableRoleSchema = z.enum(INVITABLE_ROLES, { message: 'Please select a role' });
export type InvitableRole = z.infer<typeof InvitableRoleSchema>;
export const INVITABLE_ROLE_INFO: Record<InvitableRole, { label: string; description: string; role: Role }> = {
  team_lead: { label: 'Team Lead', description: 'Manage team members & department access', role: 'TEAM_LEAD' },
  team_member: { label: 'Team Member', description: 'Standard access to team resources', role: 'TEAM_MEMBER' },
  guest: { label: 'Guest', description: 'Limited temporary collaboration access', role: 'GUEST' },
};
export const DEFAULT_INVITABLE_ROLE: InvitableRole = 'team_member';

/** Choosing a team role in the "Invite Team Member" modal sets these permissions. */
export const TEAM_ROLE_PERMISSIONS: Record<TeamRole, GrantablePermission[]> = {
  LEAD: [...GRANTABLE_PERMISSIONS],
  MEMBER: ['VIEW_DATASETS', 'UPLOAD_DICOM', 'SHARE_DATA'],
  GUEST: ['VIEW_DATASETS'],
};

// ---------------------------------------------------------------- single invitation (hospital admin)

const optionalId = IdSchema.optional().or(z.literal('').transform(() => undefined));
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((v) => (v ? v : undefined));

export const SingleInvitationSchema = z
  .object({
    fullName: z.string().trim().min(2, 'Name must be at least 2 characters').max(200),
    email: trimmed(z.email('Invalid email address')),
    role: InvitableRoleSchema,
    departmentId: optionalId,
    teamId: optionalId,
    specialization: optionalText(100),
    message: z.string().trim().max(INVITATION_MESSAGE_MAX, 'Message must be less than 500 characters').optional(),
  })
  .meta({
    // Checked against the hospital's organisation when the invitation is sent (docs/api-contract.md#rules-between-fields).
    'x-rules': [
      'departmentId names a department of the hospital',
      'teamId names an active team of the hospital, given with the departmentId of its department',
    ],
  });
export type SingleInvitationInput = z.input<typeof SingleInvitationSchema>;
export type SingleInvitation = z.output<typeof SingleInvitationSchema>;

// ---------------------------------------------------------------- team invitation (team lead)

export const TeamInvitationSchema = z.object({
  email: trimmed(z.email('Please enter a valid email address')),
  /** Blank, or a name of at least 2 characters once trimmed. */
  name: z
    .string()
    .trim()
    .max(200)
    .regex(/^\s*(\S[\s\S]*\S)?\s*$/, 'Name must be at least 2 characters')
    .optional()
    .transform((v) => (v ? v : undefined)),
  role: TeamRoleSchema.default('MEMBER'),
  /** Absent: the role's defaults, for a member the team's "Default permissions of new members" when they join. */
  permissions: z.array(GrantablePermissionSchema).min(1, 'At least one permission is required').optional(),
  message: z.string().trim().max(INVITATION_MESSAGE_MAX, 'Message must be less than 500 characters').optional(),
  expiresInDays: z.coerce
    .number()
    .int()
    .min(TEAM_INVITATION_EXPIRY_MIN_DAYS)
    .max(TEAM_INVITATION_EXPIRY_MAX_DAYS)
    .default(INVITATION_EXPIRY_DAYS),
});
export type TeamInvitationInput = z.input<typeof TeamInvitationSchema>;
export type TeamInvitation = z.output<typeof TeamInvitationSchema>;

// ---------------------------------------------------------------- bulk

export const BULK_MODES = ['basic', 'strict'] as const;
export const BulkModeSchema = z.enum(BULK_MODES);
export type BulkMode = z.infer<typeof BulkModeSchema>;

/** One bulk row as the table edits it: department and team by name or id (a CSV carries names). */
export type BulkRowInput = {
  fullName: string;
  email: string;
  role: string;
  department: string;
  team: string;
  specialization?: string;
};

export const BulkRowSchema = z.object({
  fullName: z.string().trim().max(200),
  email: z.string().trim().max(320),
  role: z.string().trim().max(40),
  department: z.string().trim().max(200).default(''),
  team: z.string().trim().max(200).default(''),
  specialization: z.string().trim().max(100).optional(),
});

export const BulkInvitationRequestSchema = z
  .object({
    mode: BulkModeSchema.default('basic'),
    invitations: z.array(BulkRowSchema).min(1).max(BULK_INVITATIONS_MAX),
  })
  // The rows are the table's text as typed or read from a CSV; validateBulkRows answers each row's errors in the
  // product's words, so the rules stay there and the document names them (docs/api-contract.md#rules-between-fields).
  .meta({
    'x-rules': [
      'each row: a name of at least 2 characters, a valid e-mail, an invitable role',
      'no e-mail twice (case-insensitive)',
      'strict mode: a team lead names a department; a department comes with a team except for guests',
    ],
  });
export type BulkInvitationRequest = z.infer<typeof BulkInvitationRequestSchema>;

const EMAIL_SHAPE = z.email();

/**
 * The bulk-row rules (docs/screens.md#bulk-invitations), the same in the site and the server. Errors per
 * row, in the product's words; duplicates compared case-insensitively, the later row naming the earlier one (1-based).
 */
export function validateBulkRows(rows: readonly BulkRowInput[], mode: BulkMode): string[][] {
  const firstRowOf = new Map<string, number>();
  return rows.map((row, index) => {
    const errors: string[] = [];
    const name = row.fullName.trim();
    const email = row.email.trim();
    const role = row.role.trim().toLowerCase();
    if (!name) errors.push('Name is required');
    else if (name.length < 2) errors.push('Name must be at least 2 characters');
    if (!email) errors.push('Email is required');
    else if (!EMAIL_SHAPE.safeParse(email).success) errors.push('Invalid email format');
    if (!role) errors.push('Role is required');
    else if (!(INVITABLE_ROLES as readonly string[]).includes(role)) errors.push('Please select a role');
    if (mode === 'strict') {
      if (role === 'team_lead' && !row.department.trim()) errors.push('Department required for Team Lead');
      if (row.department.trim() && !row.team.trim() && role !== 'guest') errors.push('Team assignment recommended');
    }
    if (email) {
      const key = email.toLowerCase();
      const first = firstRowOf.get(key);
      if (first !== undefined) errors.push(`Duplicate email (row ${first + 1})`);
      else firstRowOf.set(key, index);
    }
    return errors;
  });
}

// ---------------------------------------------------------------- invitations as the API returns them

/** Stored status. An invitation PENDING past its expiry is shown as EXPIRED. Only PENDING allows resend and cancel. */
export const INVITATION_STATUSES = ['PENDING', 'ACCEPTED', 'DECLINED', 'EXPIRED', 'CANCELLED'] as const;
export const InvitationStatusSchema = z.enum(INVITATION_STATUSES);
export type InvitationStatus = z.infer<typeof InvitationStatusSchema>;

/** The hospital admin's list groups them as the Pending tab's filters: pending, sent, accepted, expired. */
export const ADMIN_LIST_STATUSES = ['pending', 'sent', 'accepted', 'expired'] as const;
export type AdminListStatus = (typeof ADMIN_LIST_STATUSES)[number] | 'declined' | 'cancelled';

export const InvitationSchema = z.object({
  id: IdSchema,
  hospitalId: IdSchema,
  email: z.string(),
  fullName: z.string().nullable(),
  role: RoleSchema,
  teamRole: TeamRoleSchema.nullable(),
  permissions: z.array(PermissionGrantSchema),
  departmentId: z.string().nullable(),
  department: z.string().nullable(),
  teamId: z.string().nullable(),
  team: z.string().nullable(),
  specialization: z.string().nullable(),
  message: z.string().nullable(),
  /** Effective status: PENDING past expiresAt reads EXPIRED. */
  status: InvitationStatusSchema,
  /** The admin list's status: sent once the e-mail went out, pending while it has not. */
  listStatus: z.enum(['pending', 'sent', 'accepted', 'expired', 'declined', 'cancelled']),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  expiresAt: z.string(),
  expiresInDays: z.number().int(),
  invitedByName: z.string(),
  acceptedAt: z.string().nullable(),
});
export type Invitation = z.infer<typeof InvitationSchema>;

export const InvitationCountsSchema = z.object({
  all: z.number().int().nonnegative(),
  pending: z.number().int().nonnegative(),
  sent: z.number().int().nonnegative(),
  accepted: z.number().int().nonnegative(),
  expired: z.number().int().nonnegative(),
});
export type InvitationCounts = z.infer<typeof InvitationCountsSchema>;

/**
 * One page of invitations, newest first; `counts` are of all of them (from the counters), `nextToken` continues the
 * list (docs/api-contract.md).
 */
export const InvitationListSchema = z.object({
  items: z.array(InvitationSchema),
  counts: InvitationCountsSchema,
  nextToken: z.string().nullable(),
});
export const InvitationListQuerySchema = z.object({
  limit: queryNumber(z.number().int().min(1).max(100).default(50)),
  nextToken: pageTokenSchema(2048).optional(),
  /** Only the invitations of one of the Pending tab's filters (the list's status as `listStatus` reads it). */
  status: z.enum(ADMIN_LIST_STATUSES).optional(),
});
export type InvitationList = z.infer<typeof InvitationListSchema>;

// ---------------------------------------------------------------- invitee (public)

/** 32 random bytes, base64url: 43 characters. */
export const InvitationTokenSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{43}$/, 'Invalid input');

/** Cognito's password policy of the user pool (infra/stacks/auth-stack.ts): 12+ with lower, upper, digit, symbol. */
export const PASSWORD_MIN_LENGTH = 12;
export const PasswordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, 'Password must be at least 12 characters')
  .max(256)
  .regex(/[a-z]/, 'Password must contain a lowercase letter')
  .regex(/[A-Z]/, 'Password must contain an uppercase letter')
  .regex(/[0-9]/, 'Password must contain a number')
  .regex(/[^A-Za-z0-9]/, 'Password must contain a symbol');

export const InvitationPreviewQuerySchema = z.object({ token: InvitationTokenSchema });
export const InvitationPreviewSchema = z.object({
  email: z.string(),
  fullName: z.string().nullable(),
  hospitalName: z.string(),
  department: z.string().nullable(),
  team: z.string().nullable(),
  role: RoleSchema,
  expiresAt: z.string(),
});
export type InvitationPreview = z.infer<typeof InvitationPreviewSchema>;

export const AcceptInvitationSchema = z.object({
  token: InvitationTokenSchema,
  firstName: z.string().trim().min(1, 'Required').max(100),
  lastName: z.string().trim().min(1, 'Required').max(100),
  password: PasswordSchema,
});
export type AcceptInvitation = z.infer<typeof AcceptInvitationSchema>;
export const AcceptInvitationResultSchema = z.object({ email: z.string(), hospitalName: z.string() });

export const DeclineInvitationSchema = z.object({ token: InvitationTokenSchema });
export const DeclineInvitationResultSchema = z.object({ declined: z.literal(true) });
