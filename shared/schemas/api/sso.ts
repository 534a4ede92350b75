import { z } from 'zod';

/**
 * A hospital's own OpenID Connect identity provider (docs/sso.md): where it is (issuer), the app client the hospital
 * registered for us there, the e-mail domains it owns (one hospital per domain across the deployment), and how the
 * provider's groups map onto our roles (a user of no mapped group gets the hospital's default member role, the Users &
 * Teams tab's). The client secret is write-only: it goes to the user pool's identity provider
 * and is never stored in the table nor answered.
 */
export const SSO_MAPPABLE_ROLES = ['HOSPITAL_ADMIN', 'TEAM_LEAD', 'TEAM_MEMBER', 'GUEST'] as const;

/** An e-mail domain as a lower-case host name (RFC 1035 labels), e.g. northside.org. */
export const EmailDomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'An e-mail domain such as northside.org');

/**
 * The issuer: https, or http on the loopback host only (a provider on the same machine, as the tests run one).
 * OpenID Connect Discovery 1.0, section 4: the issuer has no query nor fragment.
 */
export const IssuerSchema = z
  .string()
  .max(2048)
  // The same rule as a pattern, so the API document states it (docs/api-contract.md).
  .regex(
    /^(https:\/\/([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\.)*[A-Za-z]([A-Za-z0-9-]*[A-Za-z0-9])?(:[1-5]?[0-9]{1,4})?|http:\/\/(localhost|127\.0\.0\.1)(:[1-5]?[0-9]{1,4})?)(\/[A-Za-z0-9._~!$&'()*+,;=:@/-]*)?$/,
    'An https URL without query or fragment',
  )
  .pipe(z.url());

export const SsoRoleMappingSchema = z.object({
  /** A value of the groups claim, as the provider sends it. */
  group: z.string().trim().min(1, 'Required').max(200),
  role: z.enum(SSO_MAPPABLE_ROLES),
});
export type SsoRoleMapping = z.infer<typeof SsoRoleMappingSchema>;

const SsoFieldsSchema = z.object({
  issuer: IssuerSchema,
  clientId: z.string().trim().min(1, 'Required').max(255),
  domains: z.array(EmailDomainSchema).min(1, 'Name at least one e-mail domain').max(10),
  /** The ID token claim that lists the user's groups. */
  groupsClaim: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_:./-]{1,100}$/)
    .default('groups'),
  roleMappings: z.array(SsoRoleMappingSchema).max(50).default([]),
  /** Users of the domains are sent to the provider at sign-in. */
  enabled: z.boolean(),
  /** Password sign-in is refused for users of the domains (only while enabled). */
  ssoOnly: z.boolean().default(false),
});

/** What the issuer's pattern cannot say: the host must also be one the URL Standard parses. */
const ISSUER_RULE = 'issuer parses as a URL (WHATWG URL Standard): a host whose last label is numeric is refused';

export const PutSsoRequestSchema = SsoFieldsSchema.extend({
  /** Required the first time; left out, the secret the provider already has is kept. */
  clientSecret: z.string().min(1).max(1024).optional(),
}).meta({ 'x-rules': [ISSUER_RULE] });
export type PutSsoRequest = z.infer<typeof PutSsoRequestSchema>;

export const SsoSettingsSchema = SsoFieldsSchema.extend({
  /** The user pool's name of the provider (`oidc-<hospitalId>`); the identities claim carries it. */
  providerName: z.string(),
  updatedAt: z.string(),
  updatedByUserId: z.string(),
});
export type SsoSettings = z.infer<typeof SsoSettingsSchema>;

export const SsoSettingsResponseSchema = z.object({ sso: SsoSettingsSchema.nullable() });

export const TestSsoRequestSchema = z.object({ issuer: IssuerSchema }).meta({ 'x-rules': [ISSUER_RULE] });

export const SsoCheckSchema = z.object({
  name: z.enum(['discovery', 'issuer', 'endpoints', 'jwks']),
  ok: z.boolean(),
  detail: z.string(),
});
export const TestSsoResultSchema = z.object({ ok: z.boolean(), checks: z.array(SsoCheckSchema) });
export type TestSsoResult = z.infer<typeof TestSsoResultSchema>;

/** The login page's question: where does this e-mail sign in? */
export const SsoRouteQuerySchema = z.object({ email: z.string().trim().max(320) });
/** Only whether to redirect and where: never the hospital, nor whether the user exists. */
export const SsoRouteSchema = z.union([
  z.object({ redirect: z.literal(false) }),
  z.object({ redirect: z.literal(true), url: z.string() }),
]);
export type SsoRoute = z.infer<typeof SsoRouteSchema>;
