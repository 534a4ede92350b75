import { z } from 'zod';

/**
 * A hospital's own identity provider, OpenID Connect or SAML 2.0 (docs/sso.md): where it is (issuer), the app client the hospital
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

/** What the issuer's pattern cannot say: the host must also be one the URL Standard parses. */
const ISSUER_RULE = 'issuer parses as a URL (WHATWG URL Standard): a host whose last label is numeric is refused';

/** What every provider has: the hospital's e-mail domains, how its groups map onto roles, and the switches. */
const SsoCommonFieldsSchema = z.object({
  domains: z.array(EmailDomainSchema).min(1, 'Name at least one e-mail domain').max(10),
  /** The ID token claim (OIDC) or the assertion's attribute (SAML) that lists the user's groups. */
  groupsClaim: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_:./-]{1,200}$/)
    .default('groups'),
  roleMappings: z.array(SsoRoleMappingSchema).max(50).default([]),
  /** Users of the domains are sent to the provider at sign-in. */
  enabled: z.boolean(),
  /** Password sign-in is refused for users of the domains (only while enabled). */
  ssoOnly: z.boolean().default(false),
});

/** An OpenID Connect provider: where it is (issuer) and the app client registered for us there. */
const OidcFieldsSchema = SsoCommonFieldsSchema.extend({
  /** Absent on configurations saved before SAML providers: those are OpenID Connect. */
  protocol: z.literal('OIDC').default('OIDC'),
  issuer: IssuerSchema,
  clientId: z.string().trim().min(1, 'Required').max(255),
});

/** A SAML metadata URL (SAML 2.0 Metadata, section 4.1 "well-known location"): https only. */
export const SamlMetadataUrlSchema = z
  .string()
  .max(2048)
  .regex(/^https:\/\/[^\s]+$/, 'An https URL')
  .pipe(z.url());

/** The largest metadata file taken (Cognito takes a MetadataFile of up to 131,072 characters). */
export const SAML_METADATA_MAX_CHARS = 131_072;

/**
 * Where a SAML provider's metadata is read: its URL, or the file's XML. One of them is needed to connect it; left out
 * on a later save, the metadata the user pool holds is kept.
 */
const SamlSourceSchema = z.object({
  metadataUrl: SamlMetadataUrlSchema.optional(),
  metadataXml: z.string().min(1).max(SAML_METADATA_MAX_CHARS).optional(),
});

/** What was read of a SAML provider's metadata (SAML 2.0 Metadata: EntityDescriptor, IDPSSODescriptor). */
export const SamlMetadataSchema = z.object({
  entityId: z.string(),
  /** The SingleSignOnService location (the HTTP-Redirect binding's, else HTTP-POST's). */
  ssoUrl: z.string(),
  /** The signing certificates' subjects and ends of validity (ISO time). */
  signingCertificates: z.array(z.object({ subject: z.string(), validTo: z.string() })),
});
export type SamlMetadata = z.infer<typeof SamlMetadataSchema>;

const SAML_SOURCE_RULE = 'a SAML provider gives metadataUrl or metadataXml, not both';

export const PutOidcSsoRequestSchema = OidcFieldsSchema.extend({
  /** Required the first time; left out, the secret the provider already has is kept. */
  clientSecret: z.string().min(1).max(1024).optional(),
});
export const PutSamlSsoRequestSchema = SsoCommonFieldsSchema.extend({
  protocol: z.literal('SAML'),
  ...SamlSourceSchema.shape,
}).refine((r) => !(r.metadataUrl && r.metadataXml), { message: SAML_SOURCE_RULE, path: ['metadataXml'] });

export const PutSsoRequestSchema = z
  .union([PutOidcSsoRequestSchema, PutSamlSsoRequestSchema])
  .meta({ 'x-rules': [ISSUER_RULE, SAML_SOURCE_RULE] });
export type PutSsoRequest = z.infer<typeof PutSsoRequestSchema>;
export type PutSamlSsoRequest = z.infer<typeof PutSamlSsoRequestSchema>;

const SsoStateFieldsSchema = z.object({
  /** The user pool's name of the provider (`oidc-<hospitalId>` or `saml-<hospitalId>`); the identities claim carries it. */
  providerName: z.string(),
  updatedAt: z.string(),
  updatedByUserId: z.string(),
});

export const OidcSsoSettingsSchema = OidcFieldsSchema.extend({
  /** Absent on configurations saved before SAML providers. */
  protocol: z.literal('OIDC').optional(),
  ...SsoStateFieldsSchema.shape,
});
export const SamlSsoSettingsSchema = SsoCommonFieldsSchema.extend({
  protocol: z.literal('SAML'),
  /** The metadata URL the user pool reads, when the provider was connected by URL (not by file). */
  metadataUrl: z.string().optional(),
  ...SamlMetadataSchema.shape,
  ...SsoStateFieldsSchema.shape,
});
export const SsoSettingsSchema = z.union([OidcSsoSettingsSchema, SamlSsoSettingsSchema]);
export type SsoSettings = z.infer<typeof SsoSettingsSchema>;
export type SamlSsoSettings = z.infer<typeof SamlSsoSettingsSchema>;

/** Reads a SAML provider's metadata before saving, to show what was read (POST /api/hospital-admin/sso/saml-metadata). */
export const ReadSamlMetadataRequestSchema = SamlSourceSchema.refine(
  (r) => Boolean(r.metadataUrl) !== Boolean(r.metadataXml),
  {
    message: 'Give the metadata URL or the metadata file',
    path: ['metadataUrl'],
  },
).meta({ 'x-rules': ['exactly one of metadataUrl and metadataXml'] });
export const ReadSamlMetadataResultSchema = z.union([
  z.object({ ok: z.literal(true), metadata: SamlMetadataSchema }),
  z.object({ ok: z.literal(false), reason: z.string() }),
]);
export type ReadSamlMetadataResult = z.infer<typeof ReadSamlMetadataResultSchema>;

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
