import { requireCan, type Caller } from '#shared/domain/auth/caller.ts';
import type { HospitalRecord, TeamRecord } from '#shared/domain/auth/ports.ts';
import type { UserStatus } from '#shared/vocabulary/users.ts';
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
 * Whose departments and teams a list reads (docs/roles-and-permissions.md#super-admin-across-hospitals): the super
 * admin names any hospital with `hospitalId` (their own, empty, system tenant otherwise); every other role reads
 * their own hospital, and naming another answers 404 as if it did not exist.
 */
export async function listScope(
  caller: Caller,
  hospitalId: string | undefined,
  deps: Pick<OrganisationDeps, 'directory'>,
): Promise<string> {
  if (caller.role === 'SUPER_ADMIN') return userScope(caller, hospitalId, deps);
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

/**
 * A team whose members the caller may manage (add through invitations, remove, change role or permissions): one they
 * see (another team answers 404) and MANAGE_MEMBERS on it (403 otherwise), docs/roles-and-permissions.md#permission-checks.
 */
export async function membersManagedTeam(
  caller: Caller,
  teamId: string,
  deps: Pick<OrganisationDeps, 'directory'>,
): Promise<TeamRecord> {
  const team = await visibleTeam(caller, teamId, deps);
  requireCan(caller, 'MANAGE_MEMBERS', { teamId });
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

/** Moves a user's department membership counter: out of the old department, into the new. */
export async function moveDepartmentMember(
  deps: Pick<OrganisationDeps, 'organisation'>,
  hospitalId: string,
  from: string | null | undefined,
  to: string | null | undefined,
): Promise<void> {
  if ((from ?? null) === (to ?? null)) return;
  if (from) await deps.organisation.add(hospitalId, { kind: 'department', departmentId: from }, { memberCount: -1 });
  if (to) await deps.organisation.add(hospitalId, { kind: 'department', departmentId: to }, { memberCount: 1 });
}
