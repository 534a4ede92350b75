import { DEFAULT_PERMISSIONS, type Permission } from '#shared/vocabulary/roles.ts';
import { requireMayGive, type Caller } from '#shared/domain/auth/caller.ts';
import type { TeamRecord, UserRecord } from '#shared/domain/auth/ports.ts';
import { AccessDeniedError, NotFoundError, RuleError } from '#shared/domain/errors.ts';
import {
  DEFAULT_TEAM_SETTINGS,
  TEAM_ROLE_TO_USER_ROLE,
  type Team,
  type TeamDetail,
  type TeamInput,
  type TeamMember,
  type TeamRole,
  type UpdateTeamRequest,
} from '#shared/schemas/api/organisation.ts';
import { actorOf, listScope, managedTeam, membersManagedTeam, requireHospitalAdmin, visibleTeam } from './common.ts';
import { loadDepartment } from './departments.ts';
import type { OrganisationDeps } from './ports.ts';
import { applyRoleChange, applyTeamMove } from './users.ts';
import { toTeam, toTeamMember } from './views.ts';

type ListTeamsInput = {
  hospitalId?: string;
  departmentId?: string;
  includeArchived: boolean;
  limit: number;
  nextToken?: string;
};

/** Team views of a page of teams: each department read once, each lead once (a page at most). */
async function describeTeams(
  teams: TeamRecord[],
  hospitalId: string,
  deps: Pick<OrganisationDeps, 'directory' | 'organisation'>,
): Promise<Team[]> {
  if (teams.length === 0) return [];
  const departmentIds = [...new Set(teams.map((t) => t.departmentId))];
  const departments = new Map(
    await Promise.all(
      departmentIds.map(
        async (id) => [id, (await deps.organisation.getDepartment(hospitalId, id))?.name ?? ''] as const,
      ),
    ),
  );
  return Promise.all(
    teams.map(async (t) =>
      toTeam(
        t,
        departments.get(t.departmentId) ?? '',
        t.leadUserId ? await deps.directory.getUser(hospitalId, t.leadUserId) : undefined,
      ),
    ),
  );
}

/**
 * Teams page: a hospital admin pages through the hospital's teams (one department's, archived ones only when asked)
 * from an index, the super admin those of the hospital it names; leads, members and guests see only their own team.
 */
export async function listTeams(
  input: ListTeamsInput,
  caller: Caller,
  deps: Pick<OrganisationDeps, 'directory' | 'organisation' | 'pageTokens'>,
): Promise<{ items: Team[]; nextToken: string | null }> {
  const hospitalId = await listScope(caller, input.hospitalId, deps);
  if (caller.role !== 'HOSPITAL_ADMIN' && caller.role !== 'SUPER_ADMIN') {
    const own = caller.teamId ? await deps.directory.getTeam(caller.hospitalId, caller.teamId) : undefined;
    const visible = own && (input.includeArchived || own.isActive !== false) ? [own] : [];
    return { items: await describeTeams(visible, caller.hospitalId, deps), nextToken: null };
  }
  const scope = JSON.stringify(['teams', hospitalId, input.departmentId ?? '*', input.includeArchived]);
  const startKey = input.nextToken ? await deps.pageTokens.open(scope, input.nextToken) : undefined;
  const page = await deps.organisation.listTeams({
    hospitalId,
    departmentId: input.departmentId,
    includeArchived: input.includeArchived,
    limit: input.limit,
    startKey,
  });
  return {
    items: await describeTeams(page.items, hospitalId, deps),
    nextToken: page.lastKey ? await deps.pageTokens.seal(scope, page.lastKey) : null,
  };
}

async function checkLead(caller: Caller, leadUserId: string | null | undefined, deps: OrganisationDeps) {
  if (!leadUserId) return;
  const lead = await deps.directory.getUser(caller.hospitalId, leadUserId);
  if (!lead) throw new NotFoundError('USER_NOT_FOUND');
}

export async function createTeam(input: TeamInput, caller: Caller, deps: OrganisationDeps): Promise<Team> {
  requireHospitalAdmin(caller);
  await loadDepartment(caller, input.departmentId, deps);
  await checkLead(caller, input.leadUserId, deps);
  const now = deps.clock.now();
  const team: TeamRecord = {
    id: deps.ids.newId(),
    hospitalId: caller.hospitalId,
    ...input,
    settings: { ...DEFAULT_TEAM_SETTINGS, ...input.settings },
    isActive: true,
    memberCount: 0,
    datasetCount: 0,
    storageUsedBytes: 0,
    pendingInvitationCount: 0,
    createdAt: now,
    updatedAt: now,
  };
  await deps.organisation.createTeam(team);
  await deps.organisation.add(caller.hospitalId, { kind: 'hospital' }, { teamCount: 1 });
  await deps.organisation.add(
    caller.hospitalId,
    { kind: 'department', departmentId: input.departmentId },
    { teamCount: 1 },
  );
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    action: 'TEAM_CREATED',
    ...actorOf(caller),
    details: { teamId: team.id, departmentId: team.departmentId, leadUserId: team.leadUserId ?? null },
  });
  return (await describeTeams([team], caller.hospitalId, deps))[0]!;
}

/** One team with the Overview stat cards, computed from data (docs/domain.md#counters). */
export async function getTeam(teamId: string, caller: Caller, deps: OrganisationDeps): Promise<TeamDetail> {
  const team = await visibleTeam(caller, teamId, deps);
  const [view] = await describeTeams([team], caller.hospitalId, deps);
  const activeMembers = await deps.organisation.countTeamMembers(caller.hospitalId, teamId, 'ACTIVE');
  return {
    ...view!,
    stats: {
      activeMembers,
      pendingInvites: Math.max(0, team.pendingInvitationCount ?? 0),
      totalDatasets: Math.max(0, team.datasetCount ?? 0),
      storageUsedBytes: Math.max(0, team.storageUsedBytes ?? 0),
    },
  };
}

/** A hospital admin edits everything; the team's own lead only its settings. */
export async function updateTeam(
  teamId: string,
  request: UpdateTeamRequest,
  caller: Caller,
  deps: OrganisationDeps,
): Promise<Team> {
  const team = await managedTeam(caller, teamId, deps);
  const { settings, ...rest } = request;
  const fields = Object.keys(rest).filter((k) => rest[k as keyof typeof rest] !== undefined);
  if (caller.role !== 'HOSPITAL_ADMIN' && fields.length > 0) throw new AccessDeniedError();
  if (rest.departmentId && rest.departmentId !== team.departmentId)
    await loadDepartment(caller, rest.departmentId, deps);
  if (rest.leadUserId !== undefined) await checkLead(caller, rest.leadUserId, deps);
  const before = { ...DEFAULT_TEAM_SETTINGS, ...team.settings };
  const after = settings ? { ...before, ...settings } : undefined;
  const updated = await deps.organisation.updateTeam(caller.hospitalId, teamId, {
    ...Object.fromEntries(fields.map((k) => [k, rest[k as keyof typeof rest]])),
    ...(after ? { settings: after } : {}),
    updatedAt: deps.clock.now(),
  });
  if (rest.departmentId && rest.departmentId !== team.departmentId && team.isActive !== false) {
    await deps.organisation.add(
      caller.hospitalId,
      { kind: 'department', departmentId: team.departmentId },
      { teamCount: -1 },
    );
    await deps.organisation.add(
      caller.hospitalId,
      { kind: 'department', departmentId: rest.departmentId },
      { teamCount: 1 },
    );
  }
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    action: 'TEAM_UPDATED',
    ...actorOf(caller),
    details: {
      teamId,
      fields: [...fields, ...(settings ? ['settings'] : [])],
      ...(after ? { before: { settings: before }, after: { settings: after } } : {}),
    },
  });
  return (await describeTeams([updated], caller.hospitalId, deps))[0]!;
}

/** Archive: the team leaves the lists; its members keep their accounts and leave the team (docs/states.md#teams). */
export async function archiveTeam(teamId: string, caller: Caller, deps: OrganisationDeps): Promise<Team> {
  requireHospitalAdmin(caller);
  const team = await visibleTeam(caller, teamId, deps);
  if (team.isActive === false) return (await describeTeams([team], caller.hospitalId, deps))[0]!;
  let startKey: Record<string, string> | undefined;
  const members: UserRecord[] = [];
  do {
    const page = await deps.organisation.listUsers({ hospitalId: caller.hospitalId, teamId, limit: 100, startKey });
    members.push(...page.items);
    startKey = page.lastKey;
  } while (startKey);
  for (const member of members) await applyTeamMove(member, null, caller, deps);
  const updated = await deps.organisation.updateTeam(caller.hospitalId, teamId, {
    isActive: false,
    updatedAt: deps.clock.now(),
  });
  await deps.organisation.add(caller.hospitalId, { kind: 'hospital' }, { teamCount: -1 });
  await deps.organisation.add(
    caller.hospitalId,
    { kind: 'department', departmentId: team.departmentId },
    { teamCount: -1 },
  );
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    action: 'TEAM_ARCHIVED',
    ...actorOf(caller),
    details: { teamId, before: { isActive: true }, after: { isActive: false }, membersRemoved: members.length },
  });
  return (await describeTeams([updated], caller.hospitalId, deps))[0]!;
}

export async function restoreTeam(teamId: string, caller: Caller, deps: OrganisationDeps): Promise<Team> {
  requireHospitalAdmin(caller);
  const team = await visibleTeam(caller, teamId, deps);
  if (team.isActive !== false) return (await describeTeams([team], caller.hospitalId, deps))[0]!;
  const updated = await deps.organisation.updateTeam(caller.hospitalId, teamId, {
    isActive: true,
    updatedAt: deps.clock.now(),
  });
  await deps.organisation.add(caller.hospitalId, { kind: 'hospital' }, { teamCount: 1 });
  await deps.organisation.add(
    caller.hospitalId,
    { kind: 'department', departmentId: team.departmentId },
    { teamCount: 1 },
  );
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    action: 'TEAM_RESTORED',
    ...actorOf(caller),
    details: { teamId, before: { isActive: false }, after: { isActive: true } },
  });
  return (await describeTeams([updated], caller.hospitalId, deps))[0]!;
}

/** The team's members (users whose team it is), a page at a time from the team index. */
export async function listTeamMembers(
  teamId: string,
  input: { limit: number; nextToken?: string },
  caller: Caller,
  deps: Pick<OrganisationDeps, 'directory' | 'organisation' | 'pageTokens'>,
): Promise<{ items: TeamMember[]; nextToken: string | null }> {
  const team = await visibleTeam(caller, teamId, deps);
  const scope = JSON.stringify(['members', caller.hospitalId, teamId]);
  const startKey = input.nextToken ? await deps.pageTokens.open(scope, input.nextToken) : undefined;
  const page = await deps.organisation.listUsers({
    hospitalId: caller.hospitalId,
    teamId,
    limit: input.limit,
    startKey,
  });
  const department = await deps.organisation.getDepartment(caller.hospitalId, team.departmentId);
  return {
    items: page.items.map((u) => toTeamMember(u, department?.name ?? null)),
    nextToken: page.lastKey ? await deps.pageTokens.seal(scope, page.lastKey) : null,
  };
}

async function loadMember(caller: Caller, team: TeamRecord, memberId: string, deps: OrganisationDeps) {
  const member = await deps.directory.getUser(caller.hospitalId, memberId);
  if (!member || member.teamId !== team.id) throw new NotFoundError('USER_NOT_FOUND');
  // A hospital admin in a team is managed on the Users page, not by the team's lead.
  if (member.role === 'HOSPITAL_ADMIN' || member.role === 'SUPER_ADMIN') throw new AccessDeniedError();
  return member;
}

async function memberView(user: UserRecord, team: TeamRecord, deps: OrganisationDeps): Promise<TeamMember> {
  const department = await deps.organisation.getDepartment(team.hospitalId, team.departmentId);
  return toTeamMember(user, department?.name ?? null);
}

/** A member's team role is their user role (LEAD = TEAM_LEAD ...): the group changes with it. */
export async function changeMemberRole(
  teamId: string,
  memberId: string,
  role: TeamRole,
  caller: Caller,
  deps: OrganisationDeps,
): Promise<TeamMember> {
  const team = await membersManagedTeam(caller, teamId, deps);
  const member = await loadMember(caller, team, memberId, deps);
  const newRole = TEAM_ROLE_TO_USER_ROLE[role];
  // A role change gives the role's default permissions (docs/roles-and-permissions.md#default-permissions).
  requireMayGive(caller, { to: member.role, role: newRole, permissions: DEFAULT_PERMISSIONS[newRole] });
  const updated = await applyRoleChange(member, newRole, caller, deps);
  return memberView(updated, team, deps);
}

export async function changeMemberPermissions(
  teamId: string,
  memberId: string,
  permissions: Permission[],
  caller: Caller,
  deps: OrganisationDeps,
): Promise<TeamMember> {
  const team = await membersManagedTeam(caller, teamId, deps);
  const member = await loadMember(caller, team, memberId, deps);
  if (member.id === caller.userId) throw new RuleError('CANNOT_CHANGE_OWN_ACCOUNT');
  const after = [...new Set(permissions)];
  requireMayGive(caller, { to: member.role, permissions: after });
  const updated = await deps.organisation.updateUser(caller.hospitalId, memberId, {
    permissions: after,
    updatedAt: deps.clock.now(),
  });
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    action: 'MEMBER_PERMISSIONS_CHANGED',
    ...actorOf(caller),
    details: { teamId, userId: memberId, before: { permissions: member.permissions }, after: { permissions: after } },
  });
  return memberView(updated, team, deps);
}

/** Removes the member from the team: their account stays, with no team. */
export async function removeMember(
  teamId: string,
  memberId: string,
  caller: Caller,
  deps: OrganisationDeps,
): Promise<null> {
  const team = await membersManagedTeam(caller, teamId, deps);
  const member = await loadMember(caller, team, memberId, deps);
  if (member.id === caller.userId) throw new RuleError('CANNOT_CHANGE_OWN_ACCOUNT');
  requireMayGive(caller, { to: member.role });
  await applyTeamMove(member, null, caller, deps);
  return null;
}
