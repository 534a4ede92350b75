import type { Role } from '#shared/vocabulary/roles.ts';

/**
 * What an ID token must say before the API trusts its claims. API Gateway's Cognito authorizer checks the signature
 * and expiry only: it lets through access tokens, and ID tokens of any app client of the pool.
 */
export type TokenPolicy = {
  /** `iss`: the user pool's issuer URL. */
  issuer: string;
  /** `aud`: the site's app client id. */
  audience: string;
  /** Roles whose sessions must show a second factor (the `mfa` claim, see MFA_CLAIM). */
  mfaRequiredFor: readonly Role[];
};

/**
 * Claim the user pool's pre-token-generation trigger adds to an ID token when the sign-in used a second factor:
 * `totp` for a local account with an authenticator app (Cognito then challenges every sign-in), `idp` for a
 * federated account (its hospital's identity provider authenticates it). Users cannot write claims of this name.
 */
export const MFA_CLAIM = 'mfa';
export const MFA_METHODS = ['totp', 'idp'] as const;
export type MfaMethod = (typeof MFA_METHODS)[number];

/** Roles that must sign in with a second factor where the stage enforces it (prod). */
export const MFA_ROLES: readonly Role[] = ['HOSPITAL_ADMIN', 'TEAM_LEAD'];

/** Issuer of a user pool's tokens: Cognito's regional issuer, or the pool under the given endpoint. */
export function userPoolIssuer(userPoolId: string, region: string, endpoint?: string): string {
  return endpoint
    ? `${endpoint.replace(/\/+$/, '')}/${userPoolId}`
    : `https://cognito-idp.${region}.amazonaws.com/${userPoolId}`;
}

/** `aud` arrives as a string from API Gateway, as an array or comma-joined list from other routers. */
function audiences(claim: unknown): string[] {
  if (Array.isArray(claim)) return claim.map(String);
  return typeof claim === 'string' ? claim.split(',').map((a) => a.trim()) : [];
}

/** An ID token (not an access token) of this pool, issued to this app client. */
export function isIdTokenFor(claims: Record<string, unknown>, policy: Pick<TokenPolicy, 'issuer' | 'audience'>) {
  return claims.token_use === 'id' && claims.iss === policy.issuer && audiences(claims.aud).includes(policy.audience);
}

export function hasMfa(claims: Record<string, unknown>): boolean {
  return (MFA_METHODS as readonly unknown[]).includes(claims[MFA_CLAIM]);
}

/**
 * The trigger's decision: which second factor, if any, vouches for the sign-in. A local account with TOTP enabled
 * is always challenged for it (the pool's MFA is OPTIONAL: users who enrolled must use it); a federated account's
 * factors are its identity provider's to enforce.
 */
export function mfaMethodOf(user: { federated: boolean; mfaMethods: readonly string[] }): MfaMethod | undefined {
  if (user.federated) return 'idp';
  return user.mfaMethods.includes('SOFTWARE_TOKEN_MFA') ? 'totp' : undefined;
}
