import { hasPermission, ROLES, type Permission, type PermissionGrant, type Role } from '#shared/vocabulary/roles.ts';
import { AccessDeniedError, NotFoundError } from '#shared/domain/errors.ts';

/**
 * Who is calling: derived from the verified token claims AND the user record, never from the request
 * body or path. Every core function takes it.
 */
export type Caller = {
  userId: string;
  email: string;
  hospitalId: string;
  teamId: string | null;
  role: Role;
  permissions: PermissionGrant[];
  firstName: string;
  lastName: string;
  /** The data policy of the caller's team (docs/domain.md#teams); absent reads as 'shared'. */
  teamDataPolicy?: 'shared' | 'individual';
  /** False where the caller's team turned "Allow guest access" off (docs/domain.md#share-policy); absent reads as on. */
  teamGuestAccess?: boolean;
  /** The token was issued after a second factor (docs/domain.md#two-factor-policy). */
  secondFactor?: boolean;
  /** Signed in through the hospital's identity provider (the token carries `identities`). */
  federated?: boolean;
  /** The hospital's name as read with the caller (so a page that shows it needs no second read). */
  hospitalName?: string;
};

/**
 * `cognito:groups` as it reaches a Lambda: API Gateway renders a claim array as a string ("[A B]"), Cognito
 * may give "A,B", and a local router may pass an array. Unknown group names are dropped.
 */
export function parseGroups(claim: unknown): Role[] {
  const raw = Array.isArray(claim)
    ? claim.map(String)
    : String(claim ?? '')
        .replace(/^\[|\]$/g, '')
        .split(/[\s,]+/);
  return raw
    .map((g) => g.trim().replace(/^"|"$/g, ''))
    .filter((g): g is Role => (ROLES as readonly string[]).includes(g));
}

/** Highest role among the groups (a user should be in one; if more, the strongest wins, as Cognito precedence would). */
export function primaryRole(groups: readonly Role[]): Role | undefined {
  return ROLES.find((role) => groups.includes(role));
}

export function requirePermission(caller: Caller, permission: Permission): void {
  if (!hasPermission(caller.permissions, permission)) throw new AccessDeniedError();
}

export const isHospitalWide = (caller: Caller) => caller.role === 'HOSPITAL_ADMIN' || caller.role === 'SUPER_ADMIN';
export const isLeadOrAdmin = (caller: Caller) => isHospitalWide(caller) || caller.role === 'TEAM_LEAD';

/** Where a permission is used: a team (`teamId`), or the caller's hospital as a whole when absent. */
export type PermissionScope = { teamId?: string | null };

/**
 * The one access rule of a business permission (docs/roles-and-permissions.md#permission-checks): the caller holds it
 * (or `*`) and the scope is theirs: a hospital admin any team of their hospital, anyone else only their own team.
 * Every role is checked the same way; a lead holds the permissions by default, an admin holds `*`.
 */
export function can(caller: Caller, permission: Permission, scope: PermissionScope = {}): boolean {
  if (!hasPermission(caller.permissions, permission)) return false;
  if (scope.teamId === undefined || isHospitalWide(caller)) return true;
  return caller.teamId !== null && scope.teamId === caller.teamId;
}

/** 403 ACCESS_DENIED unless `can(caller, permission, scope)`. */
export function requireCan(caller: Caller, permission: Permission, scope: PermissionScope = {}): void {
  if (!can(caller, permission, scope)) throw new AccessDeniedError();
}

/** The roles a team member or guest granted MANAGE_MEMBERS or SEND_INVITATIONS acts on and gives. */
const DELEGATED_ROLES: readonly Role[] = ['TEAM_MEMBER', 'GUEST'];

/**
 * What a caller may give someone of their team, by a role change, a permission change or an invitation
 * (docs/roles-and-permissions.md#permission-checks). A lead or admin any team role and any grantable permission; a
 * member or guest acting through MANAGE_MEMBERS or SEND_INVITATIONS does what a lead does for members and no more:
 * only the member and guest roles, only to a member or guest, and only permissions they hold themselves.
 */
export function mayGive(
  caller: Caller,
  grant: { role?: Role; permissions?: readonly PermissionGrant[]; to?: Role },
): boolean {
  if (isLeadOrAdmin(caller)) return true;
  if (grant.to !== undefined && !DELEGATED_ROLES.includes(grant.to)) return false;
  if (grant.role !== undefined && !DELEGATED_ROLES.includes(grant.role)) return false;
  return (grant.permissions ?? []).every((p) =>
    p === '*' ? caller.permissions.includes('*') : hasPermission(caller.permissions, p),
  );
}

/** 403 ACCESS_DENIED unless `mayGive(caller, grant)`. */
export function requireMayGive(
  caller: Caller,
  grant: { role?: Role; permissions?: readonly PermissionGrant[]; to?: Role },
): void {
  if (!mayGive(caller, grant)) throw new AccessDeniedError();
}

/**
 * Team scoping: hospital admins see the hospital's datasets; leads and members their team's. A dataset the
 * caller may not see answers as if it did not exist (404, never 403), like another hospital's.
 */
export function canSeeDataset(
  caller: Caller,
  dataset: { hospitalId: string; teamId: string | null; ownerUserId?: string; sharedWithYou?: readonly string[] },
): boolean {
  if (dataset.hospitalId !== caller.hospitalId) return false;
  if (isHospitalWide(caller)) return true;
  // A guest of a team that keeps guests out sees nothing, not even what was shared with them (docs/domain.md#share-policy).
  if (isGuestKeptOut(caller)) return false;
  // Loaded through a team share granted to the caller or their team (docs/domain.md#shares).
  if (dataset.sharedWithYou && dataset.sharedWithYou.length > 0) return true;
  if (caller.teamId === null || dataset.teamId !== caller.teamId) return false;
  // Under an individual data policy a member sees their own datasets; others only through a share (docs/domain.md#teams).
  return !seesOnlyOwnDatasets(caller) || dataset.ownerUserId === caller.userId;
}

/** A guest whose team turned guest access off: every dataset read, list and share answers as if nothing existed. */
export function isGuestKeptOut(caller: Caller): boolean {
  return caller.role === 'GUEST' && caller.teamGuestAccess === false;
}

/** A member or guest of a team whose data policy is individual: their team's datasets are theirs alone. */
export function seesOnlyOwnDatasets(caller: Caller): boolean {
  return caller.teamDataPolicy === 'individual' && (caller.role === 'TEAM_MEMBER' || caller.role === 'GUEST');
}

/** What a team share grants (docs/domain.md#share-permissions). */
export type SharePermission = 'view' | 'download' | 'export';

/**
 * Whether a dataset as loaded lets the caller do `permission`: a dataset seen by hospital or team carries no
 * `sharedWithYou` and allows all three; one read through a team share allows only what the share grants
 * (docs/domain.md#share-permissions).
 */
export function holdsSharePermission(
  dataset: { sharedWithYou?: readonly string[] },
  permission: SharePermission,
): boolean {
  return dataset.sharedWithYou === undefined || dataset.sharedWithYou.includes(permission);
}

/** 403 ACCESS_DENIED when a dataset read through a team share lacks `permission` (e.g. `export` for an export). */
export function requireSharePermission(
  dataset: { sharedWithYou?: readonly string[] },
  permission: SharePermission,
): void {
  if (!holdsSharePermission(dataset, permission)) throw new AccessDeniedError();
}

export function assertVisible<T extends { hospitalId: string; teamId: string | null }>(
  caller: Caller,
  dataset: T | undefined,
): T {
  if (!dataset || !canSeeDataset(caller, dataset)) throw new NotFoundError('DATASET_NOT_FOUND');
  return dataset;
}

/** The owner, their team lead or a hospital admin may act on a dataset beyond viewing it (edit, retry). */
export function canManageDataset(
  caller: Caller,
  dataset: { ownerUserId: string; sharedWithYou?: readonly string[] },
): boolean {
  // A share lets its recipient read, never change (docs/domain.md#shares).
  if (dataset.sharedWithYou && !isHospitalWide(caller)) return false;
  return dataset.ownerUserId === caller.userId || isLeadOrAdmin(caller);
}
