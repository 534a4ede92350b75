/**
 * Single sign-on per hospital e-mail domain (docs/roles-and-permissions.md#single-sign-on): Cognito names a federated
 * user `<provider name>_<subject>`, and each hospital's provider is named `<saml|oidc>-<hospitalId>` with the
 * hospital's e-mail domain as its identifier. A federated sign-up is let in only when the provider is one of ours and
 * the e-mail is of that provider's domain; its hospital comes from the provider.
 */
export type FederationProvider = { name: string; hospitalId: string; domain: string };

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

export function placeFederatedUser(
  user: { userName: string; email: string | undefined },
  providers: readonly FederationProvider[],
): { hospitalId: string } {
  const separator = user.userName.indexOf('_');
  const providerName = separator > 0 ? user.userName.slice(0, separator).toLowerCase() : '';
  const provider = providers.find((p) => p.name.toLowerCase() === providerName);
  const domain = user.email?.split('@')[1]?.toLowerCase();
  if (!provider || !domain || domain !== provider.domain.toLowerCase()) throw new FederationRefusedError();
  return { hospitalId: provider.hospitalId };
}

/** The roles a hospital may give its federated staff by default; TEAM_MEMBER unless the hospital chose GUEST. */
export const FEDERATED_DEFAULT_ROLES = ['TEAM_MEMBER', 'GUEST'] as const;
export type FederatedDefaultRole = (typeof FEDERATED_DEFAULT_ROLES)[number];

export function federatedDefaultRole(hospital: { defaultMemberRole?: unknown } | undefined): FederatedDefaultRole {
  const chosen = hospital?.defaultMemberRole;
  return chosen === 'GUEST' ? 'GUEST' : 'TEAM_MEMBER';
}
