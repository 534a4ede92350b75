import type { Role } from '#shared/vocabulary/roles.ts';
import type { SsoStore, StoredSso } from '#shared/domain/settings/ports.ts';

/**
 * Single sign-on per hospital e-mail domain (docs/sso.md#just-in-time-accounts): Cognito names a federated user
 * `<provider name>_<subject>`, and each hospital's provider is named `oidc-<hospitalId>`. A federated sign-up is let
 * in only when its e-mail domain belongs to a hospital (the table's domain claims) whose provider is the one the user
 * came through; its hospital comes from there.
 */

/** Cognito's words back to the browser when a sign-up is refused (the trigger's error message). */
export const DOMAIN_OF_NO_HOSPITAL = 'Your e-mail domain does not belong to a hospital of Imaging Workspace.';

export class FederationRefusedError extends Error {
  override name = 'FederationRefusedError';
  constructor() {
    super(DOMAIN_OF_NO_HOSPITAL);
  }
}

export function providerNameOf(hospitalId: string, type: 'SAML' | 'OIDC'): string {
  return `${type.toLowerCase()}-${hospitalId}`;
}

export async function placeFederatedUser(
  user: { userName: string; email: string | undefined },
  sso: Pick<SsoStore, 'byDomain'>,
): Promise<{ hospitalId: string; sso: StoredSso }> {
  const separator = user.userName.indexOf('_');
  const providerName = separator > 0 ? user.userName.slice(0, separator).toLowerCase() : '';
  const at = user.email?.lastIndexOf('@') ?? -1;
  const domain = user.email && at > 0 ? user.email.slice(at + 1).toLowerCase() : '';
  const found = domain && providerName ? await sso.byDomain(domain) : undefined;
  if (!found || found.providerName.toLowerCase() !== providerName) throw new FederationRefusedError();
  const { hospitalId, ...config } = found;
  return { hospitalId, sso: config };
}

/**
 * The provider's groups as the user pool writes them into `custom:idpGroups`: a JSON array, or the pool's own form
 * of a list (`[a, b]`), or a comma-separated string.
 */
export function groupsOf(value: string | undefined): string[] {
  if (!value) return [];
  try {
    const parsed: unknown = JSON.parse(value);
    if (Array.isArray(parsed))
      return parsed
        .map(String)
        .map((g) => g.trim())
        .filter(Boolean);
  } catch {
    // Not JSON: a list in the pool's form or comma-separated.
  }
  return value
    .replace(/^\[|\]$/g, '')
    .split(',')
    .map((g) => g.trim().replace(/^"|"$/g, ''))
    .filter(Boolean);
}

/** Mapped roles, most privileged first: a user in several mapped groups gets the highest. */
const ROLE_ORDER = ['HOSPITAL_ADMIN', 'TEAM_LEAD', 'TEAM_MEMBER', 'GUEST'] as const satisfies readonly Role[];

/**
 * The role the hospital's mapping gives these groups, or else the hospital's default member role (its policy's
 * `userAndTeam.defaultMemberRole`, docs/sso.md#roles-from-groups).
 */
export function roleFromGroups(
  groups: readonly string[],
  sso: Pick<StoredSso, 'roleMappings'>,
  defaultRole: 'TEAM_MEMBER' | 'GUEST',
): Role {
  const mapped = sso.roleMappings.filter((m) => groups.includes(m.group)).map((m) => m.role);
  return ROLE_ORDER.find((role) => mapped.includes(role)) ?? defaultRole;
}
