import type { TeamRecord, UserRecord } from '#shared/domain/auth/ports.ts';
import {
  ConflictError,
  EmailTakenError,
  InvitationStateError,
  NotFoundError,
  RuleError,
} from '#shared/domain/errors.ts';
import type { AcceptInvitation, InvitationPreview } from '#shared/schemas/api/invitations.ts';
import { notifyWhoWants } from '#shared/domain/notifications/preferences.ts';
import { joiningPermissions } from '#shared/domain/organisation/member-defaults.ts';
import { moveUserCounters } from '#shared/domain/dashboards/counters.ts';
import type { InvitationDeps } from './deps.ts';
import type { InvitationRecord } from './ports.ts';
import { isLapsed } from './view.ts';

/**
 * The invitee's side (docs/screens.md#accept-invitation): the link's token is the only key. It is looked up by its
 * hash; a link replaced by a resend, or never issued, is not valid; an expired, cancelled, declined or used one gets
 * the catalogue's words.
 */
async function usableInvitation(token: string, deps: InvitationDeps): Promise<InvitationRecord> {
  const record = await deps.invitations.findByTokenHash(deps.tokens.hash(token));
  if (!record) throw new NotFoundError('INVITATION_LINK_INVALID');
  if (record.status === 'ACCEPTED') throw new InvitationStateError('INVITATION_ALREADY_USED');
  if (record.status === 'CANCELLED') throw new InvitationStateError('INVITATION_CANCELLED');
  if (record.status === 'DECLINED') throw new InvitationStateError('INVITATION_DECLINED');
  if (record.status === 'EXPIRED' || isLapsed(record, deps.clock.now()))
    throw new InvitationStateError('INVITATION_EXPIRED');
  return record;
}

async function leave(
  record: InvitationRecord,
  status: 'ACCEPTED' | 'DECLINED',
  fields: Partial<InvitationRecord>,
  deps: InvitationDeps,
) {
  try {
    return await deps.invitations.leavePending(record, status, fields);
  } catch (error) {
    // Another answer to the same link won the race: the link is used.
    if (error instanceof ConflictError) throw new InvitationStateError('INVITATION_ALREADY_USED');
    throw error;
  }
}

export async function previewInvitation(token: string, deps: InvitationDeps): Promise<InvitationPreview> {
  const record = await usableInvitation(token, deps);
  const hospital = await deps.directory.getHospital(record.hospitalId);
  return {
    email: record.email,
    fullName: record.fullName,
    hospitalName: hospital?.name ?? '',
    department: record.departmentName,
    team: record.teamName,
    role: record.role,
    expiresAt: record.expiresAt,
  };
}

/**
 * The invitation's team at acceptance, not only when it was sent: still active (TEAM_ARCHIVED) and with a seat, which
 * is taken here by one conditional write on its memberCount (TEAM_FULL), so two acceptances cannot both take the last
 * one (docs/domain.md#invitations). Returns the team as read and how to give the seat back if the acceptance fails
 * after it.
 */
async function takeTeamSeat(
  record: InvitationRecord,
  deps: InvitationDeps,
): Promise<{ team: TeamRecord | null; giveBack: () => Promise<void> }> {
  const teamId = record.teamId;
  if (!teamId) return { team: null, giveBack: async () => {} };
  const team = await deps.directory.getTeam(record.hospitalId, teamId);
  if (!team || team.isActive === false) throw new RuleError('TEAM_ARCHIVED');
  if (!(await deps.organisation.claimTeamSeat(record.hospitalId, teamId))) {
    // Archived between the read and the write, or full: the counter's condition refuses both.
    const now = await deps.directory.getTeam(record.hospitalId, teamId);
    throw new RuleError(now?.isActive === false ? 'TEAM_ARCHIVED' : 'TEAM_FULL');
  }
  return {
    team,
    giveBack: () => deps.organisation.add(record.hospitalId, { kind: 'team', teamId }, { memberCount: -1 }),
  };
}

/**
 * Accept: the team's seat is taken first (takeTeamSeat), then the identity is created in the user pool with the hospital and team attributes, a permanent password (the
 * pool's policy) and the role's group; then the invitation is used up and the user record written ACTIVE with the
 * invitation's permissions (a member invited with none named: the team's default permissions at acceptance). This hospital's INVITED record of the same e-mail (a new hospital's first admin) is the
 * one activated.
 */
export async function acceptInvitation(
  input: AcceptInvitation,
  deps: InvitationDeps,
): Promise<{ email: string; hospitalName: string }> {
  const record = await usableInvitation(input.token, deps);
  const existing = await deps.invitationDirectory.findUserByEmail(record.email);
  if (existing && !(existing.hospitalId === record.hospitalId && existing.status === 'INVITED'))
    throw new EmailTakenError('EMAIL_ALREADY_REGISTERED');
  const { team, giveBack: giveSeatBack } = await takeTeamSeat(record, deps);
  let sub: string;
  const now = deps.clock.now();
  try {
    sub = await deps.identity.createMember({
      email: record.email,
      firstName: input.firstName,
      lastName: input.lastName,
      hospitalId: record.hospitalId,
      teamId: record.teamId,
      role: record.role,
      password: input.password,
    });
    await leave(record, 'ACCEPTED', { acceptedAt: now, acceptedUserId: sub, updatedAt: now }, deps);
  } catch (error) {
    await giveSeatBack();
    throw error;
  }
  const user: UserRecord = {
    id: sub,
    email: record.email,
    firstName: input.firstName,
    lastName: input.lastName,
    role: record.role,
    status: 'ACTIVE',
    hospitalId: record.hospitalId,
    teamId: record.teamId,
    ...(record.departmentName ? { department: record.departmentName } : {}),
    ...(record.specialization ? { specialization: record.specialization } : {}),
    // An invitation that named no permissions gives a member the team's defaults as they are now, not as sent.
    permissions: record.permissionsFromTeam ? joiningPermissions(record.role, team) : [...record.permissions],
    createdAt: existing?.createdAt ?? now,
  };
  await deps.directory.putUser(user);
  if (existing && existing.id !== sub) await deps.invitationDirectory.deleteUser(existing.hospitalId, existing.id);
  // The INVITED record (if any) is replaced by the ACTIVE one: the hospital's users by status move (docs/domain.md#counters).
  await moveUserCounters(deps.organisation, record.hospitalId, existing, user);
  await deps.audit.record({
    hospitalId: record.hospitalId,
    action: 'INVITATION_ACCEPTED',
    actorUserId: sub,
    actorName: `${input.firstName} ${input.lastName}`,
    details: {
      invitationId: record.id,
      userId: sub,
      role: record.role,
      teamId: record.teamId,
      before: existing ? existing.status : null,
      after: 'ACTIVE',
    },
  });
  // The inviter hears of it if they keep "Team activity" on; the name is a colleague's, not patient data.
  await notifyWhoWants(
    record.hospitalId,
    [record.invitedByUserId],
    'teamActivity',
    {
      type: 'INVITATION_ACCEPTED',
      title: 'Invitation accepted',
      description: `${input.firstName} ${input.lastName} accepted your invitation and joined.`,
    },
    deps,
  );
  const hospital = await deps.directory.getHospital(record.hospitalId);
  return { email: record.email, hospitalName: hospital?.name ?? '' };
}

export async function declineInvitation(token: string, deps: InvitationDeps): Promise<{ declined: true }> {
  const record = await usableInvitation(token, deps);
  const now = deps.clock.now();
  await leave(record, 'DECLINED', { updatedAt: now }, deps);
  await deps.audit.record({
    hospitalId: record.hospitalId,
    action: 'INVITATION_DECLINED',
    actorUserId: 'invitee',
    actorName: 'Invitee',
    details: { invitationId: record.id, teamId: record.teamId, before: 'PENDING', after: 'DECLINED' },
  });
  return { declined: true };
}
