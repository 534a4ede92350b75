import { DEFAULT_PERMISSIONS, type Role } from '#shared/vocabulary/roles.ts';
import type { UserRecord } from '#shared/domain/auth/ports.ts';
import { groupsOf, roleFromGroups } from '#shared/domain/auth/federation.ts';
import { ConflictError, RuleError } from '#shared/domain/errors.ts';
import type { AuditLog, Clock } from '#shared/domain/ports.ts';
import type { SettingsStore, SsoStore } from '#shared/domain/settings/ports.ts';
import type { OrganisationDeps } from './ports.ts';
import { protectLastAdmin } from './users.ts';

/**
 * What the user pool's pre-token-generation trigger does with our user record at each token it issues
 * (docs/sso.md#later-sign-ins):
 *
 * - a user whose record is DISABLED (a hospital admin's or the SCIM client's deactivation) gets no token, at a sign-in
 *   or a refresh: Cognito does not ask the identity provider again at a refresh, so our record is what stops it;
 * - at a federated sign-in (not a refresh, which carries the attributes of the last sign-in), the provider's claims
 *   win: the name, and the role the hospital's mapping gives the provider groups (when the token carries the groups
 *   attribute at all), applied as the organisation's role change (the pool group, the user record with the role's default
 *   permissions, the last-admin guard) and audited `USER_ROLE_CHANGED` with the identity provider as the actor.
 */

/** The refusal's words, which Cognito hands back to the browser. */
export const ACCOUNT_DISABLED_MESSAGE = 'Your account has been disabled. Contact your hospital admin.';

export class AccountDisabledError extends Error {
  override name = 'AccountDisabledError';
  constructor() {
    super(ACCOUNT_DISABLED_MESSAGE);
  }
}

export type FederatedSignIn = {
  hospitalId: string;
  /** The user record's id: the identity's `sub`. */
  userId: string;
  /** The pool's provider the user came through (`oidc-<hospitalId>`, `saml-<hospitalId>`). */
  providerName: string;
  givenName?: string;
  familyName?: string;
  /** `custom:idpGroups` as the pool holds it; undefined when the provider released no groups. */
  groups?: string;
};

export type TokenUserDeps = {
  directory: { getUser(hospitalId: string, userId: string): Promise<UserRecord | undefined> };
  organisation: Pick<
    OrganisationDeps['organisation'],
    'updateUser' | 'listUsers' | 'lockAdminChanges' | 'unlockAdminChanges'
  >;
  sso: Pick<SsoStore, 'get'>;
  settings: Pick<SettingsStore, 'getHospitalPolicy'>;
  audit: Pick<AuditLog, 'record'>;
  clock: Clock;
  /** Moves the identity from the old role's pool group into the new one's. */
  changeGroup(from: Role, to: Role): Promise<void>;
  log?: (message: string, fields: Record<string, string>) => void;
};

/** Refuses the token of a disabled user; answers the user record (undefined when there is none yet). */
export async function checkTokenUser(
  hospitalId: string,
  userId: string,
  deps: Pick<TokenUserDeps, 'directory'>,
): Promise<UserRecord | undefined> {
  const user = await deps.directory.getUser(hospitalId, userId);
  if (user?.status === 'DISABLED') throw new AccountDisabledError();
  return user;
}

/**
 * Brings the user record of a federated sign-in up to the provider's claims. Answers the user record as it now is, or
 * undefined when there is none (the first sign-in's post-confirmation places the user; a user it refused has none).
 */
export async function syncFederatedSignIn(
  input: FederatedSignIn,
  deps: TokenUserDeps,
): Promise<UserRecord | undefined> {
  let user = await checkTokenUser(input.hospitalId, input.userId, deps);
  if (!user || user.role === 'SUPER_ADMIN') return user;
  const sso = await deps.sso.get(input.hospitalId);
  // A provider the hospital no longer uses says nothing about its users.
  if (!sso || sso.providerName.toLowerCase() !== input.providerName.toLowerCase()) return user;
  const actor = { actorUserId: `idp:${sso.providerName}`, actorName: `Identity provider ${sso.providerName}` };

  const names: Partial<UserRecord> = {};
  if (input.givenName !== undefined && input.givenName !== user.firstName) names.firstName = input.givenName;
  if (input.familyName !== undefined && input.familyName !== user.lastName) names.lastName = input.familyName;
  if (Object.keys(names).length > 0)
    user = await deps.organisation.updateUser(user.hospitalId, user.id, { ...names, updatedAt: deps.clock.now() });

  if (input.groups === undefined) return user;
  const policy = (await deps.settings.getHospitalPolicy(input.hospitalId))?.value;
  const defaultRole = policy?.userAndTeam.defaultMemberRole === 'GUEST' ? 'GUEST' : 'TEAM_MEMBER';
  const role = roleFromGroups(groupsOf(input.groups), sso, defaultRole);
  if (role === user.role) return user;

  const target = user;
  const permissions = [...DEFAULT_PERMISSIONS[role]];
  const change = async () => {
    await deps.changeGroup(target.role, role);
    return deps.organisation.updateUser(target.hospitalId, target.id, {
      role,
      permissions,
      updatedAt: deps.clock.now(),
    });
  };
  try {
    user = role === 'HOSPITAL_ADMIN' ? await change() : await protectLastAdmin(deps, target, change);
  } catch (error) {
    // The hospital's last active admin keeps the role (and a concurrent admin change wins): the sign-in goes on, and
    // the next sign-in tries again.
    if (error instanceof ConflictError || (error instanceof RuleError && error.code === 'LAST_HOSPITAL_ADMIN')) {
      deps.log?.('role from the identity provider not applied', {
        hospitalId: target.hospitalId,
        reason: error.code,
      });
      return target;
    }
    throw error;
  }
  await deps.audit.record({
    hospitalId: target.hospitalId,
    action: 'USER_ROLE_CHANGED',
    ...actor,
    details: {
      userId: target.id,
      by: 'IDENTITY_PROVIDER',
      before: { role: target.role, permissions: target.permissions },
      after: { role, permissions },
    },
  });
  return user;
}
