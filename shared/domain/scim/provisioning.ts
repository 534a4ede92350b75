import { DEFAULT_PERMISSIONS, ROLE_TITLES, type Role } from '#shared/vocabulary/roles.ts';
import type { UserRecord } from '#shared/domain/auth/ports.ts';
import { ConflictError, NotFoundError, ValidationError } from '#shared/domain/errors.ts';
import { addUserToHospital, applyRoleChange, disableUser, enableUser } from '#shared/domain/organisation/users.ts';
import type { ScimDeps } from './ports.ts';
import { scimCaller, type ScimActor } from './tokens.ts';

/**
 * Provisioning by an identity provider over SCIM 2.0 (RFC 7643/7644, docs/sso.md#provisioning-scim), on the
 * hospital of the caller's token only. A user is found by id within that hospital (another hospital's id is not
 * found) or by `userName`, which is the e-mail. Deactivation is the organisation's disable path: the identity is
 * disabled and signed out everywhere, the user kept. Every change is audited with the token as the actor.
 */

/** The user fields a SCIM User carries here. */
export type ScimUserFields = {
  userName: string;
  givenName: string;
  familyName: string;
  active: boolean;
  /** The provider's own id of the user (RFC 7643 3.1), kept for its lookups. */
  externalId?: string;
};

/** The largest page a list answers (ServiceProviderConfig's filter.maxResults). */
export const SCIM_MAX_RESULTS = 100;

function actorFields(actor: ScimActor) {
  return { actorUserId: `scim:${actor.tokenId}`, actorName: `SCIM ${actor.name}`.trim() };
}

export async function getScimUser(actor: ScimActor, userId: string, deps: Pick<ScimDeps, 'directory'>) {
  const user = await deps.directory.getUser(actor.hospitalId, userId);
  if (!user || user.role === 'SUPER_ADMIN') throw new NotFoundError('USER_NOT_FOUND');
  return user;
}

/** `userName eq "..."`: the user of that e-mail, when they belong to the token's hospital. */
export async function findScimUserByUserName(
  actor: ScimActor,
  userName: string,
  deps: Pick<ScimDeps, 'organisation'>,
): Promise<UserRecord[]> {
  const user = await deps.organisation.findUserByEmail(userName.trim().toLowerCase());
  return user && user.hospitalId === actor.hospitalId && user.role !== 'SUPER_ADMIN' ? [user] : [];
}

/**
 * One page of the hospital's users from `startIndex` (1-based, RFC 7644 3.4.2.4): the index is read a page at a
 * time up to the asked position and no further, never the whole hospital. `more` tells whether users follow.
 */
export async function listScimUsers(
  actor: ScimActor,
  startIndex: number,
  count: number,
  deps: Pick<ScimDeps, 'organisation'>,
): Promise<{ items: UserRecord[]; more: boolean }> {
  const wanted = Math.min(Math.max(count, 0), SCIM_MAX_RESULTS);
  let skip = Math.max(startIndex, 1) - 1;
  const items: UserRecord[] = [];
  let startKey: Record<string, string> | undefined;
  do {
    const limit = skip > 0 ? Math.min(skip, SCIM_MAX_RESULTS) : wanted - items.length;
    if (limit <= 0) break;
    const page = await deps.organisation.listUsers({ hospitalId: actor.hospitalId, limit, startKey });
    startKey = page.lastKey;
    for (const user of page.items) {
      if (skip > 0) skip -= 1;
      else if (items.length < wanted) items.push(user);
    }
  } while (startKey && items.length < wanted);
  return { items, more: startKey !== undefined };
}

async function defaultRoleOf(hospitalId: string, deps: Pick<ScimDeps, 'settings'>): Promise<Role> {
  const policy = (await deps.settings.getHospitalPolicy(hospitalId))?.value;
  return policy?.userAndTeam.defaultMemberRole === 'GUEST' ? 'GUEST' : 'TEAM_MEMBER';
}

/**
 * A provisioned user before their first sign-in: INVITED (billed as an invited user) with the hospital's default
 * member role and no team, until a group assignment gives another role. An e-mail of any hospital is a conflict
 * (RFC 7644 3.3: 409 uniqueness).
 */
export async function createScimUser(actor: ScimActor, fields: ScimUserFields, deps: ScimDeps): Promise<UserRecord> {
  const email = fields.userName.trim().toLowerCase();
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new ValidationError('VALIDATION_FAILED', {}, 'userName');
  if (await deps.organisation.findUserByEmail(email)) throw new ConflictError();
  const role = await defaultRoleOf(actor.hospitalId, deps);
  const user: UserRecord = {
    id: deps.ids.newId(),
    email,
    firstName: fields.givenName,
    lastName: fields.familyName,
    role,
    status: 'INVITED',
    hospitalId: actor.hospitalId,
    teamId: null,
    permissions: [...DEFAULT_PERMISSIONS[role]],
    createdAt: deps.clock.now(),
  };
  await addUserToHospital(user, deps);
  await deps.audit.record({
    hospitalId: actor.hospitalId,
    action: 'SCIM_USER_CREATED',
    ...actorFields(actor),
    targetUserId: user.id,
    details: { userId: user.id, tokenId: actor.tokenId, role, externalId: fields.externalId ?? null },
  });
  if (!fields.active) return await deactivateScimUser(actor, user.id, deps);
  return user;
}

/**
 * Applies a replaced or patched User: the name, the e-mail of an account that has not signed in yet, and `active`
 * (false: the disable path with its sign-out everywhere; true: enabled again). The e-mail of a signed-in account is
 * its identity's and changes at the provider's next sign-in only, so a change of it is refused (400 mutability).
 */
export async function updateScimUser(
  actor: ScimActor,
  userId: string,
  fields: ScimUserFields,
  deps: ScimDeps,
): Promise<UserRecord> {
  let user = await getScimUser(actor, userId, deps);
  const email = fields.userName.trim().toLowerCase();
  if (email !== user.email) {
    if (user.status !== 'INVITED') throw new ValidationError('VALIDATION_FAILED', {}, 'mutability');
    const other = await deps.organisation.findUserByEmail(email);
    if (other && other.id !== user.id) throw new ConflictError();
  }
  const changes: Partial<UserRecord> = {};
  if (fields.givenName !== user.firstName) changes.firstName = fields.givenName;
  if (fields.familyName !== user.lastName) changes.lastName = fields.familyName;
  if (email !== user.email) changes.email = email;
  if (Object.keys(changes).length > 0) {
    const before = Object.fromEntries(Object.keys(changes).map((k) => [k, user[k as keyof UserRecord]]));
    user = await deps.organisation.updateUser(actor.hospitalId, user.id, { ...changes, updatedAt: deps.clock.now() });
    await deps.audit.record({
      hospitalId: actor.hospitalId,
      action: 'SCIM_USER_UPDATED',
      ...actorFields(actor),
      targetUserId: user.id,
      details: { userId: user.id, tokenId: actor.tokenId, before, after: changes },
    });
  }
  if (!fields.active && user.status !== 'DISABLED') return await deactivateScimUser(actor, user.id, deps);
  if (fields.active && user.status === 'DISABLED') {
    await enableUser(user.id, actor.hospitalId, scimCaller(actor), deps);
    await deps.audit.record({
      hospitalId: actor.hospitalId,
      action: 'SCIM_USER_UPDATED',
      ...actorFields(actor),
      targetUserId: user.id,
      details: { userId: user.id, tokenId: actor.tokenId, before: { active: false }, after: { active: true } },
    });
    return await getScimUser(actor, user.id, deps);
  }
  return user;
}

/**
 * Deprovisioning (`active` false, or DELETE, RFC 7644 3.6): the organisation's disable path (the identity disabled
 * and signed out everywhere, its refresh tokens revoked), the user kept for the audit trail and the datasets.
 */
export async function deactivateScimUser(actor: ScimActor, userId: string, deps: ScimDeps): Promise<UserRecord> {
  const user = await getScimUser(actor, userId, deps);
  if (user.status === 'DISABLED') return user;
  await disableUser(user.id, actor.hospitalId, scimCaller(actor), deps);
  await deps.audit.record({
    hospitalId: actor.hospitalId,
    action: 'SCIM_USER_DEACTIVATED',
    ...actorFields(actor),
    targetUserId: user.id,
    details: { userId: user.id, tokenId: actor.tokenId, before: { status: user.status } },
  });
  return await getScimUser(actor, user.id, deps);
}

/** A SCIM Group: a group name of the hospital's mapping and the role it gives. */
export type ScimGroup = { id: string; displayName: string; role: Role };

/** A group's id: its name in base64url, so a group needs no item of its own. */
export function groupIdOf(displayName: string): string {
  const binary = String.fromCharCode(...new TextEncoder().encode(displayName));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The hospital's groups: those of its SSO role mapping (docs/sso.md#roles-from-groups), so a provider pushes the
 * same groups it sends in the ID token; with no mapping, one group per role named by its title ("Team Lead").
 */
export async function listScimGroups(actor: ScimActor, deps: Pick<ScimDeps, 'sso'>): Promise<ScimGroup[]> {
  const sso = await deps.sso.get(actor.hospitalId);
  const mapping =
    sso && sso.roleMappings.length > 0
      ? sso.roleMappings
      : (['HOSPITAL_ADMIN', 'TEAM_LEAD', 'TEAM_MEMBER', 'GUEST'] as const).map((role) => ({
          group: ROLE_TITLES[role],
          role,
        }));
  return mapping.map((m) => ({ id: groupIdOf(m.group), displayName: m.group, role: m.role }));
}

export async function getScimGroup(actor: ScimActor, groupId: string, deps: Pick<ScimDeps, 'sso'>) {
  const group = (await listScimGroups(actor, deps)).find((g) => g.id === groupId);
  if (!group) throw new NotFoundError();
  return group;
}

/**
 * Group membership (RFC 7644 3.5.2 add/remove of `members`): a member added takes the group's role; a member
 * removed from the group of their role falls back to the hospital's default member role. The organisation's role
 * path does the change (the identity's group, a sign-out, the last-admin guard) and audits it; the SCIM entry names
 * the group and the token.
 */
export async function changeScimGroupMembers(
  actor: ScimActor,
  groupId: string,
  change: { add: string[]; remove: string[] },
  deps: ScimDeps,
): Promise<ScimGroup> {
  const group = await getScimGroup(actor, groupId, deps);
  const caller = scimCaller(actor);
  const apply = async (userId: string, role: Role, op: 'add' | 'remove') => {
    const user = await getScimUser(actor, userId, deps);
    if (user.role === role) return;
    await applyRoleChange(user, role, caller, deps);
    await deps.audit.record({
      hospitalId: actor.hospitalId,
      action: 'SCIM_USER_UPDATED',
      ...actorFields(actor),
      targetUserId: user.id,
      details: {
        userId: user.id,
        tokenId: actor.tokenId,
        group: group.displayName,
        op,
        before: { role: user.role },
        after: { role },
      },
    });
  };
  for (const userId of change.add) await apply(userId, group.role, 'add');
  if (change.remove.length > 0) {
    const fallback = await defaultRoleOf(actor.hospitalId, deps);
    for (const userId of change.remove) {
      const user = await getScimUser(actor, userId, deps);
      if (user.role === group.role) await apply(userId, fallback, 'remove');
    }
  }
  return group;
}

/** Members of a group as far as one page of the role's index shows them (a group's read is not a hospital read). */
export async function scimGroupMembers(
  actor: ScimActor,
  group: ScimGroup,
  deps: Pick<ScimDeps, 'organisation'>,
): Promise<UserRecord[]> {
  const page = await deps.organisation.listUsers({
    hospitalId: actor.hospitalId,
    role: group.role,
    limit: SCIM_MAX_RESULTS,
  });
  return page.items;
}
