import type { Caller } from '#shared/domain/auth/caller.ts';
import {
  AccessDeniedError,
  ConflictError,
  DomainError,
  InvitationStateError,
  NotFoundError,
} from '#shared/domain/errors.ts';
import type { Invitation, InvitationList } from '#shared/schemas/api/invitations.ts';
import type { InvitationDeps } from './deps.ts';
import type { AdminListFilter, InvitationRecord } from './ports.ts';
import { deliver, manageableTeam } from './send-invitation.ts';
import { countsFromTally, expiryFrom, toInvitation } from './view.ts';

const nameOf = (caller: Caller) => `${caller.firstName} ${caller.lastName}`.trim() || caller.email;

export type InvitationPageQuery = { limit: number; nextToken?: string; status?: AdminListFilter };

/**
 * One page of invitations, newest first, read from the hospital's or the team's index, with the counts of all of
 * them from the counters (docs/domain.md#invitations): no request reads every invitation.
 */
async function pageOf(
  caller: Caller,
  teamId: string | undefined,
  query: InvitationPageQuery,
  deps: InvitationDeps,
): Promise<InvitationList> {
  const scope = JSON.stringify(['invitations', caller.hospitalId, teamId ?? null, query.status ?? null]);
  const startKey = query.nextToken ? await deps.pageTokens.open(scope, query.nextToken) : undefined;
  const now = deps.clock.now();
  const [page, tally] = await Promise.all([
    deps.invitations.listPage({
      hospitalId: caller.hospitalId,
      teamId,
      limit: query.limit,
      startKey,
      status: query.status,
      now,
    }),
    deps.invitations.tally(caller.hospitalId, teamId, now),
  ]);
  return {
    items: page.items.map((r) => toInvitation(r, now)),
    counts: countsFromTally(tally),
    nextToken: page.lastKey ? await deps.pageTokens.seal(scope, page.lastKey) : null,
  };
}

/** The Invitation Center's Pending tab: a page of the hospital's invitations, newest first, with counts. */
export async function listHospitalInvitations(
  query: InvitationPageQuery,
  caller: Caller,
  deps: InvitationDeps,
): Promise<InvitationList> {
  if (caller.role !== 'HOSPITAL_ADMIN') throw new AccessDeniedError();
  return pageOf(caller, undefined, query, deps);
}

/** The team page's Invitations tab: a page of the team's invitations, newest first, with counts. */
export async function listTeamInvitations(
  teamId: string,
  query: InvitationPageQuery,
  caller: Caller,
  deps: InvitationDeps,
): Promise<InvitationList> {
  await manageableTeam(caller, teamId, deps);
  return pageOf(caller, teamId, query, deps);
}

async function findManageable(
  caller: Caller,
  invitationId: string,
  teamId: string | undefined,
  deps: InvitationDeps,
): Promise<InvitationRecord> {
  if (teamId !== undefined) await manageableTeam(caller, teamId, deps);
  else if (caller.role !== 'HOSPITAL_ADMIN') throw new AccessDeniedError();
  const record = await deps.invitations.get(caller.hospitalId, invitationId);
  if (!record || (teamId !== undefined && record.teamId !== teamId)) throw new NotFoundError('INVITATION_NOT_FOUND');
  return record;
}

/** A manageable invitation that is still pending; only those may be resent or cancelled. */
async function findPending(
  caller: Caller,
  invitationId: string,
  teamId: string | undefined,
  deps: InvitationDeps,
): Promise<InvitationRecord> {
  const record = await findManageable(caller, invitationId, teamId, deps);
  if (record.status !== 'PENDING') throw new InvitationStateError('INVITATION_NOT_PENDING');
  return record;
}

/** A write conditioned on the invitation still being pending: losing that race says it is no longer pending. */
async function whilePending(write: () => Promise<InvitationRecord>): Promise<InvitationRecord> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof ConflictError) throw new InvitationStateError('INVITATION_NOT_PENDING');
    throw error;
  }
}

/** Audits a change to one invitation by the caller (docs/domain.md#invitations). */
async function auditChange(
  caller: Caller,
  record: InvitationRecord,
  action: 'INVITATION_RESENT' | 'INVITATION_CANCELLED',
  details: Record<string, unknown>,
  deps: InvitationDeps,
): Promise<void> {
  await deps.audit.record({
    hospitalId: record.hospitalId,
    action,
    actorUserId: caller.userId,
    actorName: nameOf(caller),
    details: { invitationId: record.id, teamId: record.teamId, ...details },
  });
}

/**
 * Resend: only a pending invitation. One that has lapsed (listed as expired) is still stored PENDING, so resending
 * revives it (docs/domain.md#invitations). A new link replaces the old
 * one, the expiry is counted again from now, and the e-mail goes out; if it cannot, nothing changes.
 */
export async function resendInvitation(
  invitationId: string,
  caller: Caller,
  deps: InvitationDeps,
  teamId?: string,
): Promise<Invitation> {
  const record = await findPending(caller, invitationId, teamId, deps);
  const now = deps.clock.now();
  const token = deps.tokens.newToken();
  const refreshed: InvitationRecord = { ...record, expiresAt: expiryFrom(now, record.expiresInDays) };
  const sentAt = await deliver(refreshed, token, deps);
  if (!sentAt) throw new DomainError('EMAIL_NOT_SENT');
  const stored = await whilePending(() =>
    deps.invitations.updatePending(record, {
      tokenHash: deps.tokens.hash(token),
      expiresAt: refreshed.expiresAt,
      sentAt,
      updatedAt: sentAt,
    }),
  );
  await auditChange(caller, record, 'INVITATION_RESENT', { expiresAt: stored.expiresAt }, deps);
  return toInvitation(stored, deps.clock.now());
}

/** Cancel: only a pending invitation; its link stops working and its e-mail may be invited again. */
export async function cancelInvitation(
  invitationId: string,
  caller: Caller,
  deps: InvitationDeps,
  teamId?: string,
): Promise<Invitation> {
  const record = await findPending(caller, invitationId, teamId, deps);
  const now = deps.clock.now();
  const stored = await whilePending(() => deps.invitations.leavePending(record, 'CANCELLED', { updatedAt: now }));
  await auditChange(caller, record, 'INVITATION_CANCELLED', { before: 'PENDING', after: 'CANCELLED' }, deps);
  return toInvitation(stored, now);
}
