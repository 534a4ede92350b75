import type { Caller } from '#shared/domain/access/caller.ts';
import type { HospitalRecord, TeamRecord, UserRecord, UserStatus } from '#shared/domain/auth/ports.ts';
import { AccessDeniedError, NotFoundError } from '#shared/domain/errors.ts';
import type { OrganisationDeps } from './ports.ts';
import { planOf, statusOf } from './views.ts';

export const SYSTEM_HOSPITAL = 'system';

export function requireSuperAdmin(caller: Caller): void {
  if (caller.role !== 'SUPER_ADMIN') throw new AccessDeniedError();
}

export function requireHospitalAdmin(caller: Caller): void {
  if (caller.role !== 'HOSPITAL_ADMIN') throw new AccessDeniedError();
}

/** A hospital the super admin manages (never the system tenant itself). */
export async function loadHospital(deps: Pick<OrganisationDeps, 'directory'>, id: string): Promise<HospitalRecord> {
  const hospital = id === SYSTEM_HOSPITAL ? undefined : await deps.directory.getHospital(id);
  if (!hospital) throw new NotFoundError('HOSPITAL_NOT_FOUND');
  return hospital;
}

/**
 * Whose users a user administrator acts on: the super admin names any hospital (their own system tenant otherwise);
 * a hospital admin only their own, and naming another answers 404 as if it did not exist.
 */
export async function userScope(
  caller: Caller,
  hospitalId: string | undefined,
  deps: Pick<OrganisationDeps, 'directory'>,
): Promise<string> {
  if (caller.role === 'SUPER_ADMIN') {
    if (!hospitalId || hospitalId === SYSTEM_HOSPITAL) return SYSTEM_HOSPITAL;
    return (await loadHospital(deps, hospitalId)).id;
  }
  if (caller.role !== 'HOSPITAL_ADMIN') throw new AccessDeniedError();
  if (hospitalId && hospitalId !== caller.hospitalId) throw new NotFoundError('HOSPITAL_NOT_FOUND');
  return caller.hospitalId;
}

/**
 * A team the caller may see: any team of their hospital for a hospital admin; their own team for everyone else.
 * Another team's or hospital's id answers 404.
 */
export async function visibleTeam(
  caller: Caller,
  teamId: string,
  deps: Pick<OrganisationDeps, 'directory'>,
): Promise<TeamRecord> {
  const mine = caller.role === 'HOSPITAL_ADMIN' || caller.teamId === teamId;
  const team = mine ? await deps.directory.getTeam(caller.hospitalId, teamId) : undefined;
  if (!team) throw new NotFoundError('TEAM_NOT_FOUND');
  return team;
}

/** A team the caller may manage: a hospital admin any of their hospital's; a team lead only their own. */
export async function managedTeam(
  caller: Caller,
  teamId: string,
  deps: Pick<OrganisationDeps, 'directory'>,
): Promise<TeamRecord> {
  const team = await visibleTeam(caller, teamId, deps);
  if (caller.role !== 'HOSPITAL_ADMIN' && caller.role !== 'TEAM_LEAD') throw new AccessDeniedError();
  return team;
}

export const actorOf = (caller: Caller) => ({
  actorUserId: caller.userId,
  actorName: `${caller.firstName} ${caller.lastName}`.trim(),
});

/** Users that count as the hospital's users (billed): active and invited, not disabled. */
export const isBilled = (status: UserStatus) => status !== 'DISABLED';

/**
 * Moves the hospital's user counter and the summary over every hospital by `delta` (the plan's users count only
 * while the hospital is active).
 */
export async function addUsers(
  deps: Pick<OrganisationDeps, 'organisation' | 'directory'>,
  hospitalId: string,
  delta: number,
): Promise<void> {
  if (delta === 0 || hospitalId === SYSTEM_HOSPITAL) return;
  const hospital = await deps.directory.getHospital(hospitalId);
  if (!hospital) return;
  await deps.organisation.add(hospitalId, { kind: 'hospital' }, { userCount: delta });
  await deps.organisation.addSummary({
    users: delta,
    ...(statusOf(hospital) === 'ACTIVE' ? { plan: { plan: planOf(hospital), users: delta } } : {}),
  });
}

/** Moves a user's membership counters: team memberCount and department memberCount, out of the old, into the new. */
export async function moveMembership(
  deps: Pick<OrganisationDeps, 'organisation'>,
  hospitalId: string,
  before: Pick<UserRecord, 'teamId' | 'departmentId'>,
  after: Pick<UserRecord, 'teamId' | 'departmentId'>,
): Promise<void> {
  const { organisation } = deps;
  if ((before.teamId ?? null) !== (after.teamId ?? null)) {
    if (before.teamId) await organisation.add(hospitalId, { kind: 'team', teamId: before.teamId }, { memberCount: -1 });
    if (after.teamId) await organisation.add(hospitalId, { kind: 'team', teamId: after.teamId }, { memberCount: 1 });
  }
  if ((before.departmentId ?? null) !== (after.departmentId ?? null)) {
    if (before.departmentId)
      await organisation.add(
        hospitalId,
        { kind: 'department', departmentId: before.departmentId },
        { memberCount: -1 },
      );
    if (after.departmentId)
      await organisation.add(hospitalId, { kind: 'department', departmentId: after.departmentId }, { memberCount: 1 });
  }
}

/** Every user of a hospital, a page at a time (deactivation and restore walk them; never more than a page in memory). */
export async function forEachUser(
  deps: Pick<OrganisationDeps, 'organisation'>,
  hospitalId: string,
  visit: (user: UserRecord) => Promise<void>,
): Promise<void> {
  let startKey: Record<string, string> | undefined;
  do {
    const page = await deps.organisation.listUsers({ hospitalId, limit: 100, startKey });
    for (const user of page.items) await visit(user);
    startKey = page.lastKey;
  } while (startKey);
}
