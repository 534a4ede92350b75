import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchRuntimeConfig } from '#cli/commands/upload.ts';
import { apiFetch, signIn, startTestStack, TEST_DEMO_PASSWORD, type TestStack } from '#tests/helpers/local-stack.ts';
import { startTestOidcProvider, type TestOidcProvider } from '#infra/local/oidc-test-provider.ts';

/**
 * Single sign-on through the twin (docs/sso.md): a hospital admin connects an OpenID Connect provider (the certified
 * oidc-provider on this machine), the twin's Cognito stand-in keeps it, a user of the hospital's domain signs in
 * through the stand-in's hosted login (docs/local-twin.md#single-sign-on) and is placed by the pool's triggers, and
 * with "SSO only" the pool's pre-authentication trigger refuses the password sign-in of the hospital's users.
 */
const ADMIN = 'admin@northside.demo.local';
const MEMBER = 'member@northside.demo.local';
const OTHER = 'admin@lakeview.demo.local';

/** A user the provider knows whose e-mail domain no hospital claims. */
const OUTSIDER = {
  login: 'j.doe',
  email: 'j.doe@elsewhere.example',
  givenName: 'Jo',
  familyName: 'Doe',
  groups: ['radiology-leads'],
};

let stack: TestStack;
let provider: TestOidcProvider;
let issuer: string;
let endpoint: string;
let clientId: string;

beforeAll(async () => {
  stack = await startTestStack();
  provider = await startTestOidcProvider({
    redirectUri: `${stack.url}/_aws/cognito/oauth2/idpresponse`,
    others: [OUTSIDER],
  });
  issuer = provider.issuer;
  const config = await fetchRuntimeConfig(stack.url);
  endpoint = config.signInEndpoint;
  clientId = config.userPoolClientId;
}, 120_000);
afterAll(async () => {
  await stack?.dispose();
  await provider?.close();
});

/** A browser's way through redirects, up to the site: cookies per host, every hop recorded. */
async function follow(
  start: string,
  jar: Map<string, string>,
  init?: RequestInit,
): Promise<{ url: string; hops: string[]; status: number; text: string }> {
  const hops: string[] = [];
  let url = start;
  let request: RequestInit | undefined = init;
  for (let i = 0; i < 20; i++) {
    if (url.startsWith(`${stack.url}/?`)) return { url, hops, status: 302, text: '' };
    const host = new URL(url).host;
    const response = await fetch(url, {
      ...request,
      redirect: 'manual',
      headers: { ...(request?.headers as Record<string, string>), cookie: jar.get(host) ?? '' },
    });
    const cookies = response.headers.getSetCookie().map((c) => c.split(';')[0]!);
    if (cookies.length > 0) {
      const held = new Map(
        (jar.get(host) ?? '')
          .split('; ')
          .filter(Boolean)
          .map((c) => [c.split('=')[0]!, c]),
      );
      for (const c of cookies) held.set(c.split('=')[0]!, c);
      jar.set(host, [...held.values()].join('; '));
    }
    hops.push(url);
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) {
      return { url, hops, status: response.status, text: await response.text() };
    }
    url = new URL(location, url).toString();
    request = undefined;
  }
  throw new Error(`too many redirects: ${hops.join(' -> ')}`);
}

/**
 * The site's code flow with PKCE against the hosted login, as Amplify makes it: authorize with the provider named, the
 * provider's login form (oidc-provider's development form: the login, any password), back to the site with a code,
 * and the code exchanged at /oauth2/token.
 */
async function signInThroughProvider(authorizeUrl: string, login = provider.user.login) {
  const verifier = randomBytes(32).toString('base64url');
  const url = new URL(authorizeUrl);
  url.searchParams.set('state', 'site-state');
  url.searchParams.set('code_challenge', createHash('sha256').update(verifier).digest('base64url'));
  url.searchParams.set('code_challenge_method', 'S256');
  const jar = new Map<string, string>();
  const form = await follow(url.toString(), jar);
  const back = await follow(form.url, jar, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ prompt: 'login', login, password: 'any' }).toString(),
  });
  const landed = new URL(back.url);
  const token = await fetch(`${stack.url}/_aws/cognito/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: clientId,
      code: landed.searchParams.get('code') ?? '',
      redirect_uri: `${landed.origin}/`,
      code_verifier: verifier,
    }).toString(),
  });
  return { form, back, landed, token };
}
async function passwordSignIn(email: string): Promise<{ status: number; body: Record<string, string> }> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth',
    },
    body: JSON.stringify({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: clientId,
      AuthParameters: { USERNAME: email, PASSWORD: TEST_DEMO_PASSWORD },
    }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

/** The admin connects the test provider for Northside, switched on (what the SSO tab saves). */
function connectProvider(
  token: string,
  overrides: { domains?: string[]; roleMappings?: { group: string; role: string }[]; ssoOnly?: boolean } = {},
) {
  return apiFetch(stack.url, token, '/api/hospital-admin/sso', {
    method: 'PUT',
    body: {
      issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      domains: ['sso.northside.example'],
      roleMappings: [],
      enabled: true,
      ssoOnly: false,
      ...overrides,
    },
  });
}

/** What the login page's e-mail step answers for an address (the public domain-routing route). */
async function routeOf(email: string): Promise<{ redirect: boolean; url: string }> {
  const answer = await apiFetch(stack.url, undefined, `/api/auth/sso-route?email=${encodeURIComponent(email)}`);
  return (await answer.json()) as { redirect: boolean; url: string };
}

describe('single sign-on through the twin', () => {
  it('signs a new user of the domain in through the provider into the hospital with the mapped role, refuses "SSO only" passwords, and lets them in again once disconnected', async () => {
    // Arrange
    const token = await signIn(stack.url, ADMIN);
    const federated = provider.user.email;

    // Act: test, then save switched on with "SSO only".
    const tested = await apiFetch(stack.url, token, '/api/hospital-admin/sso/test', {
      method: 'POST',
      body: { issuer },
    });
    const saved = await connectProvider(token, {
      domains: ['northside.demo.local', 'sso.northside.example'],
      roleMappings: [{ group: 'radiology-leads', role: 'TEAM_LEAD' }],
      ssoOnly: true,
    });
    const route = await routeOf(federated);
    const first = await signInThroughProvider(route.url);
    const tokens = (await first.token.json()) as Record<string, string>;
    const me = await apiFetch(stack.url, tokens.id_token, '/api/me');
    const again = await signInThroughProvider(route.url);
    const member = await passwordSignIn(MEMBER);
    const other = await passwordSignIn(OTHER);

    // Assert: the e-mail step sends the user to the stand-in's hosted login, which sends them to the provider.
    expect(tested.status).toBe(200);
    expect(((await tested.json()) as { ok: boolean }).ok).toBe(true);
    expect(saved.status).toBe(200);
    expect(route.redirect).toBe(true);
    expect(route.url.startsWith(`${stack.url}/_aws/cognito/oauth2/authorize?`)).toBe(true);
    expect(first.form.hops[1]!.startsWith(`${issuer}/auth?`)).toBe(true);
    expect(new URL(first.form.hops[1]!).searchParams.get('redirect_uri')).toBe(
      `${stack.url}/_aws/cognito/oauth2/idpresponse`,
    );
    // Back on the site with a code and the site's state; the code gives the pool's tokens.
    expect(first.landed.searchParams.get('error_description')).toBeNull();
    expect(first.landed.searchParams.get('state')).toBe('site-state');
    expect(first.token.status).toBe(200);
    expect(Object.keys(tokens).sort()).toEqual([
      'access_token',
      'expires_in',
      'id_token',
      'refresh_token',
      'token_type',
    ]);
    expect(me.status).toBe(200);
    expect(((await me.json()) as { user: Record<string, unknown> }).user).toMatchObject({
      email: federated,
      firstName: provider.user.givenName,
      lastName: provider.user.familyName,
      hospitalId: 'hosp-northside',
      role: 'TEAM_LEAD',
      status: 'ACTIVE',
    });
    // A later sign-in is the same user.
    const later = (await again.token.json()) as Record<string, string>;
    expect(
      ((await (await apiFetch(stack.url, later.id_token, '/api/me')).json()) as { user: { email: string } }).user.email,
    ).toBe(federated);
    expect(member.status).toBe(400);
    expect(member.body).toEqual({
      __type: 'UserLambdaValidationException',
      message:
        'PreAuthentication failed with error Your hospital signs in with single sign-on. Continue with your e-mail to sign in..',
    });
    expect(other.status).toBe(200);

    // Act: disconnect; the password works again and the e-mail step answers the password form.
    const removed = await apiFetch(stack.url, token, '/api/hospital-admin/sso', { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect((await passwordSignIn(MEMBER)).status).toBe(200);
    expect(await routeOf(federated)).toEqual({ redirect: false });
  }, 60_000);

  it('answers a code only once, to the client and verifier it was issued for', async () => {
    // Arrange: a sign-in through the provider, its code taken from the way back.
    const token = await signIn(stack.url, ADMIN);
    await connectProvider(token);
    const route = await routeOf(provider.user.email);
    const first = await signInThroughProvider(route.url);
    const code = first.landed.searchParams.get('code') ?? '';

    // Act: the same code again.
    const replay = await fetch(`${stack.url}/_aws/cognito/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: clientId,
        code,
        redirect_uri: `${first.landed.origin}/`,
        code_verifier: 'not-the-verifier',
      }).toString(),
    });

    // Assert
    expect(first.token.status).toBe(200);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toEqual({ error: 'invalid_grant' });
  }, 60_000);

  it("sends the pre-sign-up trigger's refusal back to the site for a user whose domain no hospital claims", async () => {
    // Arrange: Northside's provider, switched on for its own domain.
    const token = await signIn(stack.url, ADMIN);
    await connectProvider(token);
    const route = await routeOf(provider.user.email);

    // Act: the provider vouches for a user of another domain.
    const outsider = await signInThroughProvider(route.url, OUTSIDER.login);

    // Assert: Cognito's words for a refused sign-up, with the site's state; no code, so no tokens.
    expect(outsider.landed.searchParams.get('error_description')).toBe(
      'PreSignUp failed with error Your e-mail domain does not belong to a hospital of Imaging Workspace..',
    );
    expect(outsider.landed.searchParams.get('state')).toBe('site-state');
    expect(outsider.landed.searchParams.get('code')).toBeNull();
    expect(outsider.token.status).toBe(400);
  }, 60_000);

  it("gives a later sign-in the role the hospital's mapping now gives the provider's groups, audited as the provider's change", async () => {
    // Arrange: a first sign-in as a team lead, then the hospital maps the same group to hospital admin.
    const token = await signIn(stack.url, ADMIN);
    const save = (role: string) => connectProvider(token, { roleMappings: [{ group: 'radiology-leads', role }] });
    expect((await save('TEAM_LEAD')).status).toBe(200);
    const route = await routeOf(provider.user.email);
    const first = (await (await signInThroughProvider(route.url)).token.json()) as Record<string, string>;
    expect((await save('HOSPITAL_ADMIN')).status).toBe(200);

    // Act
    const later = (await (await signInThroughProvider(route.url)).token.json()) as Record<string, string>;
    const me = await apiFetch(stack.url, later.id_token, '/api/me');
    const before = await apiFetch(stack.url, first.id_token, '/api/me');
    const audit = await apiFetch(stack.url, token, '/api/audit?action=USER_ROLE_CHANGED');

    // Assert: the new token names the new role; the old one (the old group) is refused.
    expect(me.status).toBe(200);
    expect(((await me.json()) as { user: { role: string } }).user.role).toBe('HOSPITAL_ADMIN');
    expect(before.status).toBe(403);
    const events = ((await audit.json()) as { items: { actorUserId: string; details: Record<string, any> }[] }).items;
    expect(events).toContainEqual(
      expect.objectContaining({
        actorUserId: 'idp:oidc-hosp-northside',
        details: expect.objectContaining({
          by: 'IDENTITY_PROVIDER',
          before: expect.objectContaining({ role: 'TEAM_LEAD' }),
          after: expect.objectContaining({ role: 'HOSPITAL_ADMIN' }),
        }),
      }),
    );
  }, 60_000);
});
