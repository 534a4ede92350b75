import { describe, expect, it } from 'vitest';
import { keys } from '#shared/definitions/table/keys.ts';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { useHarness } from '#tests/helpers/harness.ts';
import { TEST_SAML_ENTITY_ID, TEST_SAML_SSO_URL, testIdpMetadata } from '#tests/helpers/saml-metadata.ts';

/**
 * Single sign-on through the real handlers and the DynamoDB adapters (docs/sso.md): a hospital admin connects the
 * hospital's OIDC provider, its domains are the hospital's alone, the secret never reaches the table, switching it on
 * needs a passing connection test, and the login page's e-mail step sends the domain's users to the hosted login.
 */
const NORTHSIDE_ADMIN = 'admin@northside.demo.local';
const LAKEVIEW_ADMIN = 'admin@lakeview.demo.local';
const ISSUER = 'https://idp.northside.demo.local';

const h = useHarness();

/** The provider's discovery document and key set as a conforming provider answers them. */
function answerAsProvider(issuer = ISSUER): void {
  h.deps.fetchJson = async (url) => {
    if (url === `${issuer}/.well-known/openid-configuration`) {
      return {
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
      };
    }
    if (url === `${issuer}/jwks`) return { keys: [{ kty: 'RSA', use: 'sig', kid: 'k1', n: 'AQAB', e: 'AQAB' }] };
    throw new Error('HTTP 404');
  };
}

const CONFIG = {
  issuer: ISSUER,
  clientId: 'imaging-workspace',
  domains: ['Northside.demo.local'],
  groupsClaim: 'groups',
  roleMappings: [{ group: 'radiology-leads', role: 'TEAM_LEAD' }],
  enabled: true,
  ssoOnly: false,
};

describe('single sign-on through the API', () => {
  it('reports each check of the connection test, and refuses to switch on a provider that fails it', async () => {
    // Arrange
    h.deps.fetchJson = async () => {
      throw new Error('unreachable');
    };
    // Act
    const tested = await h.call('POST', '/api/hospital-admin/sso/test', {
      as: NORTHSIDE_ADMIN,
      body: { issuer: ISSUER },
    });
    const saved = await h.call('PUT', '/api/hospital-admin/sso', {
      as: NORTHSIDE_ADMIN,
      body: { ...CONFIG, clientSecret: 'secret-1' },
    });
    // Assert
    expect(tested.status).toBe(200);
    expect(tested.body).toEqual({
      ok: false,
      checks: [{ name: 'discovery', ok: false, detail: `${ISSUER}/.well-known/openid-configuration: unreachable` }],
    });
    expect(saved.status).toBe(400);
    expect(saved.body.error.code).toBe('SSO_CONNECTION_FAILED');
  });

  it('needs the client secret on the first connection and keeps it out of the table', async () => {
    // Arrange
    answerAsProvider();
    // Act
    const withoutSecret = await h.call('PUT', '/api/hospital-admin/sso', { as: NORTHSIDE_ADMIN, body: CONFIG });
    const saved = await h.call('PUT', '/api/hospital-admin/sso', {
      as: NORTHSIDE_ADMIN,
      body: { ...CONFIG, clientSecret: 'secret-1' },
    });
    const read = await h.call('GET', '/api/hospital-admin/sso', { as: NORTHSIDE_ADMIN });
    // Assert
    expect(withoutSecret.status).toBe(400);
    expect(withoutSecret.body.error.code).toBe('SSO_SECRET_REQUIRED');
    expect(saved.status).toBe(200);
    expect(read.body.sso).toMatchObject({
      issuer: ISSUER,
      domains: ['northside.demo.local'],
      providerName: 'oidc-hosp-northside',
      enabled: true,
    });
    expect(JSON.stringify(read.body)).not.toContain('secret-1');
    const { Item } = await h.table.doc.send(
      new GetCommand({ TableName: h.table.tableName, Key: keys.sso('hosp-northside') }),
    );
    expect(JSON.stringify(Item)).not.toContain('secret-1');
    // The user pool's provider holds it (in memory here; in the cloud, Cognito: tests/unit/functions/identity-providers.test.ts).
    const providers = (h.deps.identityProviders as unknown as { providers: Map<string, { clientSecret?: string }> })
      .providers;
    expect(providers.get('oidc-hosp-northside')?.clientSecret).toBe('secret-1');
  });

  it("refuses a domain another hospital owns, with the catalogue's words", async () => {
    answerAsProvider('https://idp.lakeview.demo.local');
    const taken = await h.call('PUT', '/api/hospital-admin/sso', {
      as: LAKEVIEW_ADMIN,
      body: {
        ...CONFIG,
        issuer: 'https://idp.lakeview.demo.local',
        domains: ['lakeview.demo.local', 'northside.demo.local'],
        clientSecret: 'secret-2',
      },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({
      code: 'SSO_DOMAIN_TAKEN',
      message: 'The e-mail domain northside.demo.local is already used by another hospital.',
    });
    // Nothing of the refused save stays: Lakeview's own domain was given back.
    const route = await h.call('GET', '/api/auth/sso-route', { query: { email: 'someone@lakeview.demo.local' } });
    expect(route.body).toEqual({ redirect: false });
  });

  it("sends the domain's users to the hosted login with the hospital's provider, everyone else to the password form", async () => {
    const sso = await h.call('GET', '/api/auth/sso-route', { query: { email: 'new.user@NORTHSIDE.demo.local' } });
    const other = await h.call('GET', '/api/auth/sso-route', { query: { email: 'someone@elsewhere.demo.local' } });
    expect(sso.status).toBe(200);
    const url = new URL(sso.body.url as string);
    expect(`${url.origin}${url.pathname}`).toBe('https://auth.harness.invalid/oauth2/authorize');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      identity_provider: 'oidc-hosp-northside',
      response_type: 'code',
      redirect_uri: 'http://localhost:3000/',
    });
    expect(other.body).toEqual({ redirect: false });
  });

  it('keeps the secret the provider holds when an update leaves it out, and frees the domains on disconnect', async () => {
    answerAsProvider();
    const updated = await h.call('PUT', '/api/hospital-admin/sso', {
      as: NORTHSIDE_ADMIN,
      body: { ...CONFIG, ssoOnly: true },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.sso.ssoOnly).toBe(true);

    const removed = await h.call('DELETE', '/api/hospital-admin/sso', { as: NORTHSIDE_ADMIN });
    expect(removed.body).toEqual({ sso: null });
    const route = await h.call('GET', '/api/auth/sso-route', { query: { email: 'new.user@northside.demo.local' } });
    expect(route.body).toEqual({ redirect: false });
  });

  it("reads a SAML provider's metadata and says why it cannot, before anything is saved", async () => {
    // Arrange
    const xml = testIdpMetadata();

    // Act
    const read = await h.call('POST', '/api/hospital-admin/sso/saml-metadata', {
      as: NORTHSIDE_ADMIN,
      body: { metadataXml: xml },
    });
    const unreadable = await h.call('POST', '/api/hospital-admin/sso/saml-metadata', {
      as: NORTHSIDE_ADMIN,
      body: { metadataXml: '<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="x"/>' },
    });
    const both = await h.call('POST', '/api/hospital-admin/sso/saml-metadata', {
      as: NORTHSIDE_ADMIN,
      body: { metadataXml: xml, metadataUrl: 'https://idp.northside.example/metadata' },
    });

    // Assert
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      ok: true,
      metadata: {
        entityId: TEST_SAML_ENTITY_ID,
        ssoUrl: TEST_SAML_SSO_URL,
        signingCertificates: [{ subject: 'CN=idp.northside.example', validTo: expect.any(String) }],
      },
    });
    expect(unreadable.body).toEqual({
      ok: false,
      reason: 'no SingleSignOnService with the HTTP-Redirect or HTTP-POST binding',
    });
    expect(both.status).toBe(400);
  });

  it('connects a SAML provider by its metadata file in place of the OIDC one, keeps the metadata on a later save, and routes the domain to it', async () => {
    // Arrange: Northside connected by OpenID Connect first.
    answerAsProvider();
    await h.call('PUT', '/api/hospital-admin/sso', {
      as: NORTHSIDE_ADMIN,
      body: { ...CONFIG, clientSecret: 'secret-1' },
    });
    const xml = testIdpMetadata();
    const saml = {
      protocol: 'SAML',
      domains: ['northside.demo.local'],
      groupsClaim: 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups',
      roleMappings: [{ group: 'radiology-leads', role: 'TEAM_LEAD' }],
      enabled: true,
      ssoOnly: false,
    };
    const providers = (h.deps.identityProviders as unknown as { providers: Map<string, Record<string, unknown>> })
      .providers;

    // Act
    const invalid = await h.call('PUT', '/api/hospital-admin/sso', {
      as: NORTHSIDE_ADMIN,
      body: { ...saml, metadataXml: '<not-metadata/>' },
    });
    const noMetadata = await h.call('PUT', '/api/hospital-admin/sso', { as: NORTHSIDE_ADMIN, body: saml });
    const saved = await h.call('PUT', '/api/hospital-admin/sso', {
      as: NORTHSIDE_ADMIN,
      body: { ...saml, metadataXml: xml },
    });
    const later = await h.call('PUT', '/api/hospital-admin/sso', {
      as: NORTHSIDE_ADMIN,
      body: { ...saml, ssoOnly: true },
    });
    const route = await h.call('GET', '/api/auth/sso-route', { query: { email: 'new.user@northside.demo.local' } });

    // Assert
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('SSO_METADATA_INVALID');
    expect(noMetadata.status).toBe(400);
    expect(noMetadata.body.error).toEqual({
      code: 'SSO_METADATA_REQUIRED',
      message: "Give the identity provider's SAML metadata: its URL or its file.",
    });
    expect(saved.status).toBe(200);
    expect(saved.body.sso).toMatchObject({
      protocol: 'SAML',
      entityId: TEST_SAML_ENTITY_ID,
      ssoUrl: TEST_SAML_SSO_URL,
      providerName: 'saml-hosp-northside',
    });
    expect(later.status).toBe(200);
    expect(later.body.sso).toMatchObject({ entityId: TEST_SAML_ENTITY_ID, ssoOnly: true });
    // The OIDC provider left the pool; the SAML one holds the file, which the table does not.
    expect([...providers.keys()]).toEqual(['saml-hosp-northside']);
    expect(providers.get('saml-hosp-northside')).toMatchObject({ type: 'SAML', metadataXml: xml, enabled: true });
    const { Item } = await h.table.doc.send(
      new GetCommand({ TableName: h.table.tableName, Key: keys.sso('hosp-northside') }),
    );
    expect(JSON.stringify(Item)).not.toContain('EntityDescriptor');
    expect(new URL(route.body.url as string).searchParams.get('identity_provider')).toBe('saml-hosp-northside');

    // Clean up for the next test: disconnect.
    await h.call('DELETE', '/api/hospital-admin/sso', { as: NORTHSIDE_ADMIN });
    expect(providers.size).toBe(0);
  });

  it('limits the e-mail step per caller address', async () => {
    const answers: number[] = [];
    for (let i = 0; i < 45; i++) {
      answers.push((await h.call('GET', '/api/auth/sso-route', { query: { email: `u${i}@x.demo.local` } })).status);
    }
    expect(answers.filter((s) => s === 429).length).toBeGreaterThan(0);
  });
});
