import type { Invitation, InvitationCounts, InvitationStatus } from '#shared/schemas/api/invitations.ts';
import type { InvitationRecord, InvitationTally } from './ports.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export function expiryFrom(now: string, days: number): string {
  return new Date(Date.parse(now) + days * DAY_MS).toISOString();
}

/** A PENDING invitation whose expiry has passed: its link no longer works, and it reads EXPIRED. */
export function isLapsed(invitation: Pick<InvitationRecord, 'status' | 'expiresAt'>, now: string): boolean {
  return invitation.status === 'PENDING' && Date.parse(invitation.expiresAt) <= Date.parse(now);
}

export function effectiveStatus(invitation: InvitationRecord, now: string): InvitationStatus {
  return isLapsed(invitation, now) ? 'EXPIRED' : invitation.status;
}

/**
 * The admin list's status (docs/domain.md#invitations): sent once the e-mail went out, pending while it has not
 * (a failed delivery; Resend sends it), then accepted, expired, declined or cancelled.
 */
export function listStatusOf(invitation: InvitationRecord, now: string): Invitation['listStatus'] {
  const status = effectiveStatus(invitation, now);
  if (status === 'PENDING') return invitation.sentAt ? 'sent' : 'pending';
  return status.toLowerCase() as Invitation['listStatus'];
}

export function toInvitation(record: InvitationRecord, now: string): Invitation {
  return {
    id: record.id,
    hospitalId: record.hospitalId,
    email: record.email,
    fullName: record.fullName,
    role: record.role,
    teamRole: record.teamRole,
    permissions: record.permissions,
    departmentId: record.departmentId,
    department: record.departmentName,
    teamId: record.teamId,
    team: record.teamName,
    specialization: record.specialization,
    message: record.message,
    status: effectiveStatus(record, now),
    listStatus: listStatusOf(record, now),
    createdAt: record.createdAt,
    sentAt: record.sentAt,
    expiresAt: record.expiresAt,
    expiresInDays: record.expiresInDays,
    invitedByName: record.invitedByName,
    acceptedAt: record.acceptedAt,
  };
}

/**
 * The counts behind the filter buttons from the counters (docs/domain.md#counters): "expired" is what was stored
 * EXPIRED plus what lapsed while PENDING; "pending" the PENDING ones whose e-mail never went out that have not lapsed;
 * "sent" the rest of the stored PENDING ones.
 */
export function countsFromTally(t: InvitationTally): InvitationCounts {
  const live = Math.max(0, t.storedPending - t.lapsed);
  const pending = Math.min(t.unsentLive, live);
  return {
    all: t.all,
    pending,
    sent: live - pending,
    accepted: t.accepted,
    expired: t.storedExpired + t.lapsed,
  };
}
