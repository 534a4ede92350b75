import { DEFAULT_PERMISSIONS, type PermissionGrant, type Role } from '#shared/vocabulary/roles.ts';
import type { Caller } from '#shared/domain/auth/caller.ts';
import type { UserRecord } from '#shared/domain/auth/ports.ts';
import { AccessDeniedError, ConflictError, NotFoundError, RuleError } from '#shared/domain/errors.ts';
import type { ListUsersQuery, User } from '#shared/schemas/api/organisation.ts';
import { actorOf, addUsers, isBilled, moveDepartmentMember, userScope } from './common.ts';
import { joiningPermissions } from './member-defaults.ts';
import { moveUserCounters } from '#shared/domain/dashboards/counters.ts';
import type { OrganisationDeps } from './ports.ts';
import { statusOf, toUser } from './views.ts';

/** Names of the teams and departments a page of users refers to, read once per id. */
async function describe(
  users: UserRecord[],
  hospitalId: string,
  deps: Pick<OrganisationDeps, 'directory' | 'organisation'>,
): Promise<User[]> {
  const teamIds = [...new Set(users.map((u) => u.teamId).filter((t): t is string => Boolean(t)))];
  const teams = new Map(
    await Promise.all(
      teamIds.map(async (id) => [id, (await deps.directory.getTeam(hospitalId, id))?.name ?? null] as const),
    ),
  );
  const departmentIds = [...new Set(users.map((u) => u.departmentId).filter((d): d is string => Boolean(d)))];
  const departments = new Map(
    await Promise.all(
      departmentIds.map(
        async (id) => [id, (await deps.organisation.getDepartment(hospitalId, id))?.name ?? null] as const,
      ),
    ),
  );
  return users.map((u) =>
    toUser(
      u,
      u.teamId ? (teams.get(u.teamId) ?? null) : null,
      u.departmentId ? (departments.get(u.departmentId) ?? null) : null,
    ),
  );
}

/** One user as the API shows it, with its team's and department's names. */
async function describeOne(user: UserRecord, deps: Pick<OrganisationDeps, 'directory' | 'organisation'>) {
  return (await describe([user], user.hospitalId, deps))[0]!;
}

/**
 * An administrator acting on someone else's account (disable, demote, two-factor reset): never their own, never the
 * super admin's (docs/roles-and-permissions.md).
 */
function assertOtherManageableAccount(target: UserRecord, caller: Caller): void {
  if (target.id === caller.userId) throw new RuleError('CANNOT_CHANGE_OWN_ACCOUNT');
  if (target.role === 'SUPER_ADMIN') throw new AccessDeniedError();
}

/**
 * Users of a hospital, one page from one index (docs/domain.md#indexes): by name; a role, department or team filter
 * reads that index; a search reads the prefix tokens. Tokens are sealed to the hospital and the query.
 */
export async function listUsers(
  query: ListUsersQuery,
  caller: Caller,
  deps: Pick<OrganisationDeps, 'directory' | 'organisation' | 'pageTokens'>,
): Promise<{ items: User[]; nextToken: string | null }> {
  const hospitalId = await userScope(caller, query.hospitalId, deps);
  const search = query.q?.trim().toLowerCase() || undefined;
  const scope = JSON.stringify([
    'users',
    hospitalId,
    search ?? '',
    query.role ?? '*',
    query.departmentId ?? '*',
    query.teamId ?? '*',
    query.status ?? '*',
  ]);
  const startKey = query.nextToken ? await deps.pageTokens.open(scope, query.nextToken) : undefined;
  const page = await deps.organisation.listUsers({
    hospitalId,
    search,
    role: query.role,
    departmentId: query.departmentId,
    teamId: query.teamId,
    status: query.status,
    limit: query.limit,
    startKey,
  });
  return {
    items: await describe(page.items, hospitalId, deps),
    nextToken: page.lastKey ? await deps.pageTokens.seal(scope, page.lastKey) : null,
  };
}

async function loadUser(
  caller: Caller,
  userId: string,
  hospitalId: string | undefined,
  deps: Pick<OrganisationDeps, 'directory'>,
): Promise<UserRecord> {
  const scope = await userScope(caller, hospitalId, deps);
  const user = await deps.directory.getUser(scope, userId);
  if (!user) throw new NotFoundError('USER_NOT_FOUND');
  return user;
}

export async function getUser(
  userId: string,
  hospitalId: string | undefined,
  caller: Caller,
  deps: Pick<OrganisationDeps, 'directory' | 'organisation'>,
): Promise<User> {
  const user = await loadUser(caller, userId, hospitalId, deps);
  return await describeOne(user, deps);
}

/** Is there an ACTIVE hospital admin of the hospital other than `userId`? (Admins are few: their role index.) */
async function anotherActiveAdmin(
  deps: { organisation: Pick<OrganisationDeps['organisation'], 'listUsers'> },
  hospitalId: string,
  userId: string,
): Promise<boolean> {
  let startKey: Record<string, string> | undefined;
  do {
    const page = await deps.organisation.listUsers({
      hospitalId,
      role: 'HOSPITAL_ADMIN',
      status: 'ACTIVE',
      limit: 25,
      startKey,
    });
    if (page.items.some((u) => u.id !== userId && u.status === 'ACTIVE')) return true;
    startKey = page.lastKey;
  } while (startKey);
  return false;
}

/** How long an admin change may hold the hospital's lease before another may take it (a crashed one). */
const ADMIN_LEASE_MS = 60_000;

/**
 * The last active hospital admin of a hospital can be neither demoted nor disabled. Removing an active admin runs
 * under the hospital's admin-change lease, so two removals at once cannot both see the other admin still active:
 * the second answers CONFLICT and, tried again, LAST_HOSPITAL_ADMIN.
 */
export async function protectLastAdmin<T>(
  deps: {
    organisation: Pick<OrganisationDeps['organisation'], 'listUsers' | 'lockAdminChanges' | 'unlockAdminChanges'>;
    clock: OrganisationDeps['clock'];
  },
  target: UserRecord,
  removal: () => Promise<T>,
): Promise<T> {
  if (target.role !== 'HOSPITAL_ADMIN' || target.status !== 'ACTIVE') return removal();
  const now = deps.clock.now();
  const until = new Date(Date.parse(now) + ADMIN_LEASE_MS).toISOString();
  if (!(await deps.organisation.lockAdminChanges(target.hospitalId, now, until))) throw new ConflictError();
  try {
    if (!(await anotherActiveAdmin(deps, target.hospitalId, target.id))) throw new RuleError('LAST_HOSPITAL_ADMIN');
    return await removal();
  } finally {
    await deps.organisation.unlockAdminChanges(target.hospitalId);
  }
}

/**
 * Changes a user's role: the identity provider's group (old out, new in) and a global sign-out, then the user item with
 * the role's default permissions. The old ID token still names the old group, which the API refuses
 * (resolveCaller compares it with the user item), so it stops working at once.
 */
export async function applyRoleChange(
  target: UserRecord,
  role: Role,
  caller: Caller,
  deps: OrganisationDeps,
): Promise<UserRecord> {
  assertOtherManageableAccount(target, caller);
  if (role === 'SUPER_ADMIN') throw new AccessDeniedError();
  if (target.role === role) return target;
  const permissions = [...DEFAULT_PERMISSIONS[role]];
  const change = async () => {
    if (target.status !== 'INVITED') {
      await deps.identity.changeGroup(target.id, target.role, role);
      await deps.identity.signOut(target.id);
    }
    return deps.organisation.updateUser(target.hospitalId, target.id, {
      role,
      permissions,
      updatedAt: deps.clock.now(),
    });
  };
  const updated = role === 'HOSPITAL_ADMIN' ? await change() : await protectLastAdmin(deps, target, change);
  await deps.audit.record({
    hospitalId: target.hospitalId,
    action: 'USER_ROLE_CHANGED',
    ...actorOf(caller),
    details: {
      userId: target.id,
      before: { role: target.role, permissions: target.permissions },
      after: { role, permissions },
    },
  });
  return updated;
}

export async function changeUserRole(
  userId: string,
  hospitalId: string | undefined,
  role: Role,
  caller: Caller,
  deps: OrganisationDeps,
): Promise<User> {
  const target = await loadUser(caller, userId, hospitalId, deps);
  const updated = await applyRoleChange(target, role, caller, deps);
  return await describeOne(updated, deps);
}

/**
 * Moves a user into a team of the same hospital (active, with room under its maxMembers) or out of any team. The
 * user's department follows the team's; a team member moved into a team is given its default permissions of new
 * members.
 */
export async function applyTeamMove(
  target: UserRecord,
  teamId: string | null,
  caller: Caller,
  deps: OrganisationDeps,
): Promise<UserRecord> {
  if ((target.teamId ?? null) === teamId) return target;
  let departmentId = target.departmentId ?? null;
  // A member joining a team is given its "Default permissions of new members" (docs/domain.md#teams).
  let permissions: PermissionGrant[] | undefined;
  if (teamId) {
    const team = await deps.directory.getTeam(target.hospitalId, teamId);
    if (!team) throw new NotFoundError('TEAM_NOT_FOUND');
    if (team.isActive === false) throw new RuleError('TEAM_ARCHIVED');
    if ((team.memberCount ?? 0) >= (team.maxMembers ?? 15)) throw new RuleError('TEAM_FULL');
    departmentId = team.departmentId;
    if (target.role === 'TEAM_MEMBER') permissions = joiningPermissions(target.role, team);
  }
  const department = departmentId ? await deps.organisation.getDepartment(target.hospitalId, departmentId) : undefined;
  // The seat is taken first, conditionally, so a race cannot fill the team beyond its maximum.
  if (teamId && !(await deps.organisation.claimTeamSeat(target.hospitalId, teamId))) throw new RuleError('TEAM_FULL');
  let updated: UserRecord;
  try {
    updated = await deps.organisation.updateUser(target.hospitalId, target.id, {
      teamId,
      departmentId,
      ...(department ? { department: department.name } : {}),
      ...(permissions ? { permissions } : {}),
      updatedAt: deps.clock.now(),
    });
  } catch (error) {
    if (teamId) await deps.organisation.add(target.hospitalId, { kind: 'team', teamId }, { memberCount: -1 });
    throw error;
  }
  // The new team's seat is already counted; the old team's and the departments' counters move here.
  await moveDepartmentMember(deps, target.hospitalId, target.departmentId, departmentId);
  if (target.teamId)
    await deps.organisation.add(target.hospitalId, { kind: 'team', teamId: target.teamId }, { memberCount: -1 });
  await deps.audit.record({
    hospitalId: target.hospitalId,
    action: 'USER_TEAM_CHANGED',
    ...actorOf(caller),
    details: {
      userId: target.id,
      before: {
        teamId: target.teamId ?? null,
        departmentId: target.departmentId ?? null,
        ...(permissions ? { permissions: target.permissions } : {}),
      },
      after: { teamId, departmentId, ...(permissions ? { permissions } : {}) },
    },
  });
  return updated;
}

export async function moveUser(
  userId: string,
  hospitalId: string | undefined,
  teamId: string | null,
  caller: Caller,
  deps: OrganisationDeps,
): Promise<User> {
  const target = await loadUser(caller, userId, hospitalId, deps);
  const updated = await applyTeamMove(target, teamId, caller, deps);
  return await describeOne(updated, deps);
}

/** Disable: no sign-in (identity disabled, signed out everywhere) and no API (the stored status). */
export async function disableUser(
  userId: string,
  hospitalId: string | undefined,
  caller: Caller,
  deps: OrganisationDeps,
): Promise<User> {
  const target = await loadUser(caller, userId, hospitalId, deps);
  assertOtherManageableAccount(target, caller);
  if (target.status === 'DISABLED') return await describeOne(target, deps);
  const updated = await protectLastAdmin(deps, target, async () => {
    if (target.status !== 'INVITED') {
      await deps.identity.disable(target.id);
      await deps.identity.signOut(target.id);
    }
    return deps.organisation.updateUser(target.hospitalId, target.id, {
      status: 'DISABLED',
      updatedAt: deps.clock.now(),
    });
  });
  if (isBilled(target.status)) await addUsers(deps, target.hospitalId, -1);
  await moveUserCounters(deps.organisation, target.hospitalId, target, updated);
  await deps.audit.record({
    hospitalId: target.hospitalId,
    action: 'USER_DISABLED',
    ...actorOf(caller),
    details: { userId: target.id, before: { status: target.status }, after: { status: 'DISABLED' } },
  });
  return await describeOne(updated, deps);
}

/**
 * An administrator's two-factor reset (docs/roles-and-permissions.md#two-factor-reset): the user's authenticator-app
 * second factor is turned off and every session of theirs ends, so a user who lost their authenticator signs in with
 * the password and enrols again (required again at once where their role or hospital asks for it). Audited.
 */
export async function resetUserMfa(
  userId: string,
  hospitalId: string | undefined,
  caller: Caller,
  deps: OrganisationDeps,
): Promise<User> {
  const target = await loadUser(caller, userId, hospitalId, deps);
  assertOtherManageableAccount(target, caller);
  // An invited user has no identity yet: there is no second factor to reset.
  if (target.status !== 'INVITED') {
    await deps.identity.resetMfa(target.id);
    await deps.identity.signOut(target.id);
  }
  if (target.twoFactorSince) {
    const updated = await deps.organisation.updateUser(target.hospitalId, target.id, { twoFactorSince: undefined });
    await moveUserCounters(deps.organisation, target.hospitalId, target, updated);
  }
  await deps.audit.record({
    hospitalId: target.hospitalId,
    action: 'USER_MFA_RESET',
    ...actorOf(caller),
    details: { userId: target.id },
  });
  return await describeOne(target, deps);
}

/** Enable a disabled user; their identity signs in again unless their hospital is deactivated. */
export async function enableUser(
  userId: string,
  hospitalId: string | undefined,
  caller: Caller,
  deps: OrganisationDeps,
): Promise<User> {
  const target = await loadUser(caller, userId, hospitalId, deps);
  if (target.status !== 'DISABLED') return await describeOne(target, deps);
  const hospital = await deps.directory.getHospital(target.hospitalId);
  if (!hospital || statusOf(hospital) === 'ACTIVE') await deps.identity.enable(target.id);
  const updated = await deps.organisation.updateUser(target.hospitalId, target.id, {
    status: 'ACTIVE',
    updatedAt: deps.clock.now(),
  });
  await addUsers(deps, target.hospitalId, 1);
  await moveUserCounters(deps.organisation, target.hospitalId, target, updated);
  await deps.audit.record({
    hospitalId: target.hospitalId,
    action: 'USER_ENABLED',
    ...actorOf(caller),
    details: { userId: target.id, before: { status: 'DISABLED' }, after: { status: 'ACTIVE' } },
  });
  return await describeOne(updated, deps);
}

/**
 * Stores a new user of a hospital (an accepted or pending invitation, an import) and moves every counter it affects:
 * the hospital's users and the summary (when billed), its users by status, its team's seat (refused with TEAM_FULL or TEAM_ARCHIVED) and
 * its department's members. The caller audits the action that created it.
 */
export async function addUserToHospital(
  user: UserRecord,
  deps: Pick<OrganisationDeps, 'directory' | 'organisation'>,
): Promise<void> {
  if (await deps.directory.getUser(user.hospitalId, user.id)) throw new ConflictError();
  if (user.teamId) {
    const team = await deps.directory.getTeam(user.hospitalId, user.teamId);
    if (!team) throw new NotFoundError('TEAM_NOT_FOUND');
    if (team.isActive === false) throw new RuleError('TEAM_ARCHIVED');
    if (!(await deps.organisation.claimTeamSeat(user.hospitalId, user.teamId))) throw new RuleError('TEAM_FULL');
  }
  await deps.directory.putUser(user);
  await moveDepartmentMember(deps, user.hospitalId, null, user.departmentId);
  if (isBilled(user.status)) await addUsers(deps, user.hospitalId, 1);
  await moveUserCounters(deps.organisation, user.hospitalId, undefined, user);
}
