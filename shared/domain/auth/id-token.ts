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
 * federated account whose identity provider says it used a second factor (see idpUsedSecondFactor). Users cannot
 * write claims of this name.
 */
export const MFA_CLAIM = 'mfa';
export const MFA_METHODS = ['totp', 'idp'] as const;
export type MfaMethod = (typeof MFA_METHODS)[number];

/**
 * The user pool attribute a hospital's identity provider's authentication methods are mapped into at each federated
 * sign-in (OIDC `amr`, or the SAML attribute IDP_AUTHN_CONTEXT_SAML_ATTRIBUTE). The trigger reads it for federated
 * accounts only; their tokens (hosted UI: openid, email, profile) cannot write their own attributes.
 */
export const IDP_AMR_ATTRIBUTE_NAME = 'idpAmr';
export const IDP_AMR_ATTRIBUTE = `custom:${IDP_AMR_ATTRIBUTE_NAME}`;
/**
 * The user's groups at their hospital's identity provider, written by the user pool from the provider's groups claim
 * at each federated sign-in (docs/sso.md#roles-from-groups): a JSON array or a comma-separated list.
 */
export const IDP_GROUPS_ATTRIBUTE_NAME = 'idpGroups';
export const IDP_GROUPS_ATTRIBUTE = `custom:${IDP_GROUPS_ATTRIBUTE_NAME}`;
/**
 * The SAML attribute a hospital's identity provider releases its authentication methods or context class in (the
 * name Microsoft Entra ID gives it); Cognito maps attributes only, never the AuthnContextClassRef element itself.
 */
export const IDP_AUTHN_CONTEXT_SAML_ATTRIBUTE = 'http://schemas.microsoft.com/claims/authnmethodsreferences';

/** RFC 8176 authentication method references that stand for a second factor. */
export const SECOND_FACTOR_AMR = ['mfa', 'otp', 'hwk', 'swk'] as const;
/**
 * SAML authentication context classes (SAML 2.0 Authentication Context, the REFEDS MFA profile, Entra ID's
 * multiple-authentication value) that stand for a multi-factor sign-in: read as the `mfa` method.
 */
export const MULTI_FACTOR_AUTHN_CONTEXTS = [
  'urn:oasis:names:tc:SAML:2.0:ac:classes:MobileTwoFactorContract',
  'urn:oasis:names:tc:SAML:2.0:ac:classes:MobileTwoFactorUnregistered',
  'urn:oasis:names:tc:SAML:2.0:ac:classes:TimeSyncToken',
  'https://refeds.org/profile/mfa',
  'http://schemas.microsoft.com/claims/multipleauthn',
] as const;

/**
 * The identity provider's methods as the pool keeps them: Cognito writes a multi-valued claim or attribute into a
 * string attribute as `["pwd","mfa"]` or `[pwd, mfa]`; a single value as itself.
 */
export function idpAuthnMethods(raw: string | undefined): string[] {
  if (!raw) return [];
  return raw
    .trim()
    .replace(/^\[|\]$/g, '')
    .split(/[\s,]+/)
    .map((value) => value.replace(/^["']|["']$/g, ''))
    .filter(Boolean);
}

/** Whether the identity provider says the sign-in used a second factor (RFC 8176 values or a multi-factor class). */
export function idpUsedSecondFactor(raw: string | undefined): boolean {
  return idpAuthnMethods(raw).some(
    (method) =>
      (SECOND_FACTOR_AMR as readonly string[]).includes(method.toLowerCase()) ||
      (MULTI_FACTOR_AUTHN_CONTEXTS as readonly string[]).includes(method),
  );
}

/**
 * Roles that must sign in with a second factor where the stage enforces it (prod): the super admin, who reaches every
 * hospital, as much as the hospital admins and team leads.
 */
export const MFA_ROLES: readonly Role[] = ['SUPER_ADMIN', 'HOSPITAL_ADMIN', 'TEAM_LEAD'];

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
 * is always challenged for it (the pool's MFA is OPTIONAL: users who enrolled must use it); a federated account counts
 * only when its identity provider says a second factor was used (`idpAmr`, the provider's amr or context class).
 */
export function mfaMethodOf(user: {
  federated: boolean;
  mfaMethods: readonly string[];
  idpAmr?: string | undefined;
}): MfaMethod | undefined {
  if (user.federated) return idpUsedSecondFactor(user.idpAmr) ? 'idp' : undefined;
  return user.mfaMethods.includes('SOFTWARE_TOKEN_MFA') ? 'totp' : undefined;
}
