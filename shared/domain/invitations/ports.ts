import type { PermissionGrant, Role } from '#shared/vocabulary/roles.ts';
import type { DepartmentRecord, TeamRecord, UserRecord } from '#shared/domain/auth/ports.ts';
import type { TeamRole } from '#shared/schemas/api/organisation.ts';
import type { ADMIN_LIST_STATUSES } from '#shared/schemas/api/invitations.ts';

/** One of the Pending tab's filters: pending (not sent), sent, accepted, expired (stored or lapsed). */
export type AdminListFilter = (typeof ADMIN_LIST_STATUSES)[number];

/** What is stored: EXPIRED is never stored by the invitee's path, only when a lapsed invitation is settled. */
export type StoredInvitationStatus = 'PENDING' | 'ACCEPTED' | 'DECLINED' | 'EXPIRED' | 'CANCELLED';

/**
 * An invitation item (docs/domain.md#invitations). The link's token is never stored: only its SHA-256 hash, which
 * changes on every resend, so an earlier link stops working.
 */
export type InvitationRecord = {
  id: string;
  hospitalId: string;
  /** As typed; compared case-insensitively (emailKey). */
  email: string;
  emailKey: string;
  fullName: string | null;
  role: Role;
  /** Set for invitations sent from a team page. */
  teamRole: TeamRole | null;
  permissions: PermissionGrant[];
  /**
   * The invitation named no permissions and its invitee joins a team as a member: acceptance gives the team's default
   * permissions of that moment (`permissions` holds them as they were when it was sent).
   */
  permissionsFromTeam?: boolean;
  departmentId: string | null;
  departmentName: string | null;
  teamId: string | null;
  teamName: string | null;
  specialization: string | null;
  message: string | null;
  status: StoredInvitationStatus;
  tokenHash: string;
  createdAt: string;
  updatedAt: string;
  /** When the last e-mail went out; null while none has. */
  sentAt: string | null;
  expiresAt: string;
  expiresInDays: number;
  invitedByUserId: string;
  invitedByName: string;
  acceptedAt: string | null;
  acceptedUserId: string | null;
  /** The last delivery event of its e-mail, when the mail service reported one. */
  delivery?: DeliveryStatus;
};

/**
 * What the invitation counts are made of (docs/domain.md#counters): counters moved with each invitation
 * (all, stored PENDING, ACCEPTED, stored EXPIRED) and two Count queries over the sparse by-expiry entries: PENDING
 * invitations past their expiry (lapsed), and PENDING invitations whose e-mail never went out that have not lapsed.
 */
export type InvitationTally = {
  all: number;
  storedPending: number;
  accepted: number;
  storedExpired: number;
  lapsed: number;
  unsentLive: number;
};

/** Invitations in the table, with the pending-e-mail lock and the pending counters kept in the same transaction. */
export type InvitationRepository = {
  /**
   * Writes a PENDING invitation, takes the hospital's lock on its e-mail (EmailTakenError EMAIL_ALREADY_INVITED when
   * held) and adds one to pendingInvitationCount of the hospital and of its team.
   */
  create(invitation: InvitationRecord): Promise<void>;
  get(hospitalId: string, invitationId: string): Promise<InvitationRecord | undefined>;
  /** The invitation whose current link has this token hash, in any hospital. */
  findByTokenHash(tokenHash: string): Promise<InvitationRecord | undefined>;
  /** The id of the hospital's PENDING invitation holding this e-mail, if any. */
  pendingIdForEmail(hospitalId: string, emailKey: string): Promise<string | undefined>;
  /** One page of the hospital's invitations, or of one team's, newest first (docs/domain.md#indexes). */
  listPage(query: {
    hospitalId: string;
    teamId?: string;
    limit: number;
    startKey?: Record<string, string>;
    /**
     * Only those of this list status at `now` (a filter on the page read: at most `limit` are read, so a page can be
     * short, with a key to go on).
     */
    status?: AdminListFilter;
    now: string;
  }): Promise<{ items: InvitationRecord[]; lastKey?: Record<string, string> }>;
  /** The counters and by-expiry counts the list's counts are made of, for the hospital or one team. */
  tally(hospitalId: string, teamId: string | undefined, now: string): Promise<InvitationTally>;
  /**
   * Updates a PENDING invitation (new link, expiry, sentAt) and its by-expiry index entries; ConflictError when it is
   * no longer PENDING.
   */
  updatePending(
    invitation: Pick<InvitationRecord, 'hospitalId' | 'id' | 'teamId'>,
    fields: Partial<Pick<InvitationRecord, 'tokenHash' | 'expiresAt' | 'sentAt' | 'updatedAt'>>,
  ): Promise<InvitationRecord>;
  /**
   * Moves a PENDING invitation to another status (ConflictError when it is no longer PENDING), releases its e-mail
   * lock and takes one off the pending counters.
   */
  /** Records the last delivery event of the invitation's e-mail; false when the invitation is gone. */
  setDelivery(hospitalId: string, invitationId: string, delivery: DeliveryStatus, at: string): Promise<boolean>;
  leavePending(
    invitation: InvitationRecord,
    status: Exclude<StoredInvitationStatus, 'PENDING'>,
    fields: Partial<Pick<InvitationRecord, 'acceptedAt' | 'acceptedUserId' | 'updatedAt'>>,
  ): Promise<InvitationRecord>;
};

/** Users by e-mail across the pool (an e-mail signs in to one account), and the hospital's organisation. */
export type InvitationDirectory = {
  findUserByEmail(email: string): Promise<UserRecord | undefined>;
  listDepartments(hospitalId: string): Promise<DepartmentRecord[]>;
  listTeams(hospitalId: string): Promise<(TeamRecord & { isActive?: boolean })[]>;
  /** Removes a user item (the INVITED record, replaced by one under the identity's own id on acceptance). */
  deleteUser(hospitalId: string, userId: string): Promise<void>;
};

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** What kind of message, for the delivery records (no personal data). */
  tag:
    | 'invitation'
    | 'password-reset'
    | 'patient-share-code'
    | 'monthly-report'
    | 'dataset-export'
    | 'notification'
    | 'notification-digest';
  /** Our ids the delivery events come back with (SES message tags): never personal data. */
  refs?: { hospitalId: string; invitationId: string };
};

/** What became of a sent invitation e-mail, from the mail service's events (docs/domain.md#invitation-e-mail). */
export type DeliveryStatus = 'delivered' | 'bounced' | 'complained' | 'rejected';

/** Sends e-mail (SESv2). */
export type Mailer = { send(message: MailMessage): Promise<void> };

/** The identity provider's administration (Cognito user pool). */
export type IdentityAdmin = {
  /**
   * Creates the sign-in identity (or takes the existing one of this e-mail) with the hospital and team attributes,
   * sets a permanent password and puts it in the role's group. Returns the identity's sub.
   * Throws ValidationError with the password's problem when the policy refuses it.
   */
  createMember(input: {
    email: string;
    firstName: string;
    lastName: string;
    hospitalId: string;
    teamId: string | null;
    role: Role;
    password: string;
  }): Promise<string>;
};

/** Single-use link tokens: 32 random bytes, and their SHA-256 hash (hex) which alone is stored. */
export type TokenMint = { newToken(): string; hash(token: string): string };
