import type { Caller } from '#shared/domain/auth/caller.ts';
import { providerNameOf } from '#shared/domain/auth/federation.ts';
import { AccessDeniedError, RuleError } from '#shared/domain/errors.ts';
import type { AuditLog, Clock } from '#shared/domain/ports.ts';
import type {
  PutSamlSsoRequest,
  PutSsoRequest,
  ReadSamlMetadataResult,
  SamlSsoSettings,
  SsoRoute,
  SsoSettings,
  TestSsoResult,
} from '#shared/schemas/api/sso.ts';
import type {
  IdentityProviderSpec,
  IdentityProviders,
  JsonFetcher,
  OidcProviderSpec,
  SamlMetadataReader,
  SamlProviderSpec,
  SsoStore,
} from './ports.ts';

/**
 * A hospital's own OpenID Connect or SAML 2.0 provider, connected by its admin on the settings' SSO tab
 * (docs/sso.md): the configuration is kept in the table (never the client secret nor the metadata file, which go to
 * the user pool only), the provider itself is an identity provider of the user pool named `oidc-<hospitalId>` or
 * `saml-<hospitalId>`, and the site's app client lists it while single sign-on is on.
 */
export type SsoDeps = {
  sso: SsoStore;
  identityProviders: IdentityProviders;
  fetchJson: JsonFetcher;
  samlMetadata: SamlMetadataReader;
  audit: Pick<AuditLog, 'record'>;
  clock: Clock;
};

function assertAdmin(caller: Caller): void {
  if (caller.role !== 'HOSPITAL_ADMIN') throw new AccessDeniedError();
}

const actorOf = (caller: Caller) => ({
  actorUserId: caller.userId,
  actorName: `${caller.firstName} ${caller.lastName}`,
});

export async function getSso(caller: Caller, deps: Pick<SsoDeps, 'sso'>): Promise<{ sso: SsoSettings | null }> {
  assertAdmin(caller);
  return { sso: (await deps.sso.get(caller.hospitalId)) ?? null };
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 200) : 'no answer';
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The connection test: the provider's discovery document (OpenID Connect Discovery 1.0, section 4) names the same
 * issuer (section 4.3), an authorization, a token and a JWKS endpoint, and its key set (RFC 7517) holds at least one
 * signing key. Each check is reported, in order; the first failure ends the test.
 */
export async function testSsoConnection(issuer: string, fetchJson: JsonFetcher): Promise<TestSsoResult> {
  const checks: TestSsoResult['checks'] = [];
  const fail = (name: TestSsoResult['checks'][number]['name'], detail: string): TestSsoResult => {
    checks.push({ name, ok: false, detail });
    return { ok: false, checks };
  };
  const discoveryUrl = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  let document: unknown;
  try {
    document = await fetchJson(discoveryUrl);
  } catch (error) {
    return fail('discovery', `${discoveryUrl}: ${reasonOf(error)}`);
  }
  if (!isRecord(document)) return fail('discovery', `${discoveryUrl} is not a JSON object`);
  checks.push({ name: 'discovery', ok: true, detail: discoveryUrl });

  if (document.issuer !== issuer) {
    return fail('issuer', `The provider names its issuer ${String(document.issuer)}, not ${issuer}`);
  }
  checks.push({ name: 'issuer', ok: true, detail: issuer });

  const endpoints = ['authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const;
  const missing = endpoints.filter((name) => typeof document[name] !== 'string');
  if (missing.length > 0) return fail('endpoints', `The discovery document has no ${missing.join(', ')}`);
  checks.push({ name: 'endpoints', ok: true, detail: String(document.authorization_endpoint) });

  const jwksUri = String(document.jwks_uri);
  let jwks: unknown;
  try {
    jwks = await fetchJson(jwksUri);
  } catch (error) {
    return fail('jwks', `${jwksUri}: ${reasonOf(error)}`);
  }
  const keys = isRecord(jwks) && Array.isArray(jwks.keys) ? jwks.keys.filter(isRecord) : [];
  const signing = keys.filter((key) => key.use !== 'enc' && (key.kty === 'RSA' || key.kty === 'EC'));
  if (signing.length === 0) return fail('jwks', `${jwksUri} holds no RSA or EC signing key`);
  checks.push({ name: 'jwks', ok: true, detail: `${signing.length} signing key(s)` });
  return { ok: true, checks };
}

/**
 * Saves the configuration. The first connection (or a new issuer or client id) needs the client secret; switching
 * single sign-on on needs a passing connection test. The domains are claimed first, so a domain of another hospital
 * refuses the save before the user pool is touched. Audited with before and after (never the secret).
 */
export async function saveSso(request: PutSsoRequest, caller: Caller, deps: SsoDeps): Promise<{ sso: SsoSettings }> {
  assertAdmin(caller);
  if (request.protocol === 'SAML') return saveSaml(request, caller, deps);
  const before = await deps.sso.get(caller.hospitalId);
  const beforeOidc = before && before.protocol !== 'SAML' ? before : undefined;
  const newProvider = !beforeOidc || beforeOidc.issuer !== request.issuer || beforeOidc.clientId !== request.clientId;
  if (newProvider && !request.clientSecret) throw new RuleError('SSO_SECRET_REQUIRED');
  if (request.enabled) {
    const test = await testSsoConnection(request.issuer, deps.fetchJson);
    const failed = test.checks.find((check) => !check.ok);
    if (failed) throw new RuleError('SSO_CONNECTION_FAILED', { reason: failed.detail });
  }
  const { clientSecret, ...fields } = request;
  const sso: SsoSettings = {
    ...fields,
    domains: [...new Set(fields.domains)],
    ssoOnly: fields.enabled && fields.ssoOnly,
    providerName: providerNameOf(caller.hospitalId, 'OIDC'),
    updatedAt: deps.clock.now(),
    updatedByUserId: caller.userId,
  };
  await storeProvider(
    caller,
    before,
    sso,
    { type: 'OIDC', issuer: sso.issuer, clientId: sso.clientId, ...(clientSecret ? { clientSecret } : {}) },
    { clientSecretChanged: !!clientSecret },
    deps,
  );
  return { sso };
}

type ProviderOwnFields =
  | Omit<OidcProviderSpec, 'name' | 'domains' | 'groupsClaim' | 'enabled'>
  | Omit<SamlProviderSpec, 'name' | 'domains' | 'groupsClaim' | 'enabled'>;

/**
 * Stores a hospital's provider, whichever its protocol: its domains claimed (SSO_DOMAIN_TAKEN when another hospital
 * holds one), a provider of the other protocol taken out of the user pool (its name differs), the pool's provider
 * written with the hospital's domains, groups claim and switch, and the change audited.
 */
async function storeProvider(
  caller: Caller,
  before: SsoSettings | undefined,
  sso: SsoSettings,
  own: ProviderOwnFields,
  changed: Record<string, boolean>,
  deps: SsoDeps,
): Promise<void> {
  const { taken } = await deps.sso.save(caller.hospitalId, sso);
  if (taken) throw new RuleError('SSO_DOMAIN_TAKEN', { domain: taken });
  if (before && before.providerName !== sso.providerName) await deps.identityProviders.remove(before.providerName);
  await deps.identityProviders.upsert({
    ...own,
    name: sso.providerName,
    domains: sso.domains,
    groupsClaim: sso.groupsClaim,
    enabled: sso.enabled,
  } as IdentityProviderSpec);
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    action: 'SSO_SETTINGS_CHANGED',
    ...actorOf(caller),
    details: { before: before ?? null, after: sso, ...changed },
  });
}

/** Reads a SAML provider's metadata and says what was read, or why it could not be (the SSO tab's preview). */
export async function readSamlMetadata(
  source: { metadataUrl?: string; metadataXml?: string },
  deps: Pick<SsoDeps, 'samlMetadata'>,
): Promise<ReadSamlMetadataResult> {
  try {
    return { ok: true, metadata: (await deps.samlMetadata(source)).metadata };
  } catch (error) {
    return { ok: false, reason: reasonOf(error) };
  }
}

/**
 * Saves a SAML 2.0 provider. Its metadata (by URL or file) is read and checked first: an entity ID, a single sign-on
 * service and a signing certificate. The first connection needs it; a later save without it keeps what the user pool
 * holds. The user pool gets the URL (it reads the metadata itself) or the file; the table keeps what was read.
 */
async function saveSaml(request: PutSamlSsoRequest, caller: Caller, deps: SsoDeps): Promise<{ sso: SsoSettings }> {
  const before = await deps.sso.get(caller.hospitalId);
  const beforeSaml = before?.protocol === 'SAML' ? before : undefined;
  const { metadataUrl, metadataXml, ...fields } = request;
  const source = metadataUrl ? { metadataUrl } : metadataXml ? { metadataXml } : undefined;
  if (!source && !beforeSaml) throw new RuleError('SSO_METADATA_REQUIRED');
  let read: Awaited<ReturnType<SamlMetadataReader>> | undefined;
  if (source) {
    try {
      read = await deps.samlMetadata(source);
    } catch (error) {
      throw new RuleError('SSO_METADATA_INVALID', { reason: reasonOf(error) });
    }
  }
  const held = beforeSaml!;
  const sso: SamlSsoSettings = {
    ...fields,
    domains: [...new Set(fields.domains)],
    ssoOnly: fields.enabled && fields.ssoOnly,
    ...(metadataUrl ? { metadataUrl } : !source && held.metadataUrl ? { metadataUrl: held.metadataUrl } : {}),
    ...(read
      ? read.metadata
      : { entityId: held.entityId, ssoUrl: held.ssoUrl, signingCertificates: held.signingCertificates }),
    providerName: providerNameOf(caller.hospitalId, 'SAML'),
    updatedAt: deps.clock.now(),
    updatedByUserId: caller.userId,
  };
  await storeProvider(
    caller,
    before,
    sso,
    { type: 'SAML', ...(metadataUrl ? { metadataUrl } : read ? { metadataXml: read.xml } : {}) },
    { metadataChanged: Boolean(source) },
    deps,
  );
  return { sso };
}

/** Disconnects the provider: the user pool's provider and the configuration go, the domains are freed. */
export async function deleteSso(caller: Caller, deps: SsoDeps): Promise<{ sso: null }> {
  assertAdmin(caller);
  const before = await deps.sso.get(caller.hospitalId);
  if (before) {
    await deps.identityProviders.remove(before.providerName);
    await deps.sso.remove(caller.hospitalId);
    await deps.audit.record({
      hospitalId: caller.hospitalId,
      action: 'SSO_SETTINGS_CHANGED',
      ...actorOf(caller),
      details: { before, after: null },
    });
  }
  return { sso: null };
}

export function emailDomainOf(email: string | undefined): string | undefined {
  const at = email?.lastIndexOf('@') ?? -1;
  if (!email || at < 1) return undefined;
  return (
    email
      .slice(at + 1)
      .trim()
      .toLowerCase() || undefined
  );
}

/** E-mail steps per address and minute: a person types a few, a script probing domains many. */
export const SSO_ROUTE_LIMIT_PER_MINUTE = 20;

/** The user pool's hosted login (OAuth 2.0 authorize endpoint) and the site's app client and return address. */
export type HostedLogin = { authorizeUrl: string; clientId: string; redirectUri: string };

/**
 * Where an e-mail signs in (the login page's first step): the hosted login with the hospital's provider named
 * (`identity_provider`, so the user pool sends the browser straight on) when its domain has single sign-on on,
 * otherwise the password form. It answers nothing else: not the hospital, nor whether the user exists.
 */
export async function ssoRoute(
  email: string,
  client: { ip: string },
  deps: {
    sso: Pick<SsoStore, 'byDomain'>;
    hostedLogin: HostedLogin;
    /** A fixed-window counter of the public routes (the patient routes' counter). */
    hit(key: string, windowSeconds: number, at: string): Promise<number>;
    clock: Clock;
  },
): Promise<SsoRoute> {
  if ((await deps.hit(`sso-route#${client.ip}`, 60, deps.clock.now())) > SSO_ROUTE_LIMIT_PER_MINUTE) {
    throw new RuleError('SIGN_IN_RATE_LIMITED');
  }
  const domain = emailDomainOf(email);
  const sso = domain ? await deps.sso.byDomain(domain) : undefined;
  if (!sso?.enabled || !deps.hostedLogin.authorizeUrl) return { redirect: false };
  const query = new URLSearchParams({
    identity_provider: sso.providerName,
    client_id: deps.hostedLogin.clientId,
    response_type: 'code',
    scope: 'openid email profile',
    redirect_uri: deps.hostedLogin.redirectUri,
  });
  return { redirect: true, url: `${deps.hostedLogin.authorizeUrl}?${query.toString()}` };
}

/** The sign-in refused to a password of a single-sign-on-only domain (the pre-authentication trigger's message). */
export const SSO_ONLY_MESSAGE = 'Your hospital signs in with single sign-on. Continue with your e-mail to sign in.';

/**
 * Whether a password sign-in is allowed: not for a user of the hospital that owns the e-mail's domain and chose "SSO
 * only". A domain claim is not a proof of ownership (docs/sso.md#not-built-yet), so it never locks out a user of
 * another hospital, nor the super admin, who belongs to none.
 */
export async function passwordSignInAllowed(
  user: { email: string | undefined; hospitalId: string | undefined },
  sso: Pick<SsoStore, 'byDomain'>,
): Promise<boolean> {
  const domain = emailDomainOf(user.email);
  if (!domain || !user.hospitalId) return true;
  const found = await sso.byDomain(domain);
  return !(found?.enabled && found.ssoOnly && found.hospitalId === user.hospitalId);
}
