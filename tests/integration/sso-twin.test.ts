import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchRuntimeConfig } from '#cli/commands/upload.ts';
import { apiFetch, signIn, startTestStack, TEST_DEMO_PASSWORD, type TestStack } from '#tests/helpers/local-stack.ts';

/**
 * Single sign-on through the twin (docs/sso.md): a hospital admin connects an OpenID Connect provider (here one that
 * answers discovery and its key set on this machine), the twin's Cognito stand-in keeps it, and with "SSO only" the
 * pool's pre-authentication trigger refuses the password sign-in of the hospital's users, as Cognito does; the e-mail
 * step answers the password form on the twin, which has no hosted login (docs/local-twin.md#known-gaps).
 */
const ADMIN = 'admin@northside.demo.local';
const MEMBER = 'member@northside.demo.local';
const OTHER = 'admin@lakeview.demo.local';

let stack: TestStack;
let provider: Server;
let issuer: string;
let endpoint: string;
let clientId: string;

beforeAll(async () => {
  // The provider's discovery document and key set (OpenID Connect Discovery 1.0, RFC 7517).
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...publicKey.export({ format: 'jwk' }), use: 'sig', kid: 'k1', alg: 'RS256' };
  provider = createServer((req, res) => {
    const documents: Record<string, unknown> = {
      '/.well-known/openid-configuration': {
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
      },
      '/jwks': { keys: [jwk] },
    };
    const body = documents[req.url ?? ''];
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? {}));
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  stack = await startTestStack();
  const config = await fetchRuntimeConfig(stack.url);
  endpoint = config.signInEndpoint;
  clientId = config.userPoolClientId;
}, 120_000);
afterAll(async () => {
  await stack?.dispose();
  provider?.close();
});

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

describe('single sign-on through the twin', () => {
  it('connects the provider after its test, refuses password sign-ins of "SSO only" users, and lets them in again once disconnected', async () => {
    // Arrange
    const token = await signIn(stack.url, ADMIN);

    // Act: test, then save switched on with "SSO only".
    const tested = await apiFetch(stack.url, token, '/api/hospital-admin/sso/test', {
      method: 'POST',
      body: { issuer },
    });
    const saved = await apiFetch(stack.url, token, '/api/hospital-admin/sso', {
      method: 'PUT',
      body: {
        issuer,
        clientId: 'imaging-workspace',
        clientSecret: 'twin-secret',
        domains: ['northside.demo.local'],
        roleMappings: [{ group: 'radiology-leads', role: 'TEAM_LEAD' }],
        enabled: true,
        ssoOnly: true,
      },
    });
    const member = await passwordSignIn(MEMBER);
    const other = await passwordSignIn(OTHER);
    const route = await apiFetch(stack.url, undefined, `/api/auth/sso-route?email=${encodeURIComponent(MEMBER)}`);

    // Assert
    expect(tested.status).toBe(200);
    expect(((await tested.json()) as { ok: boolean }).ok).toBe(true);
    expect(saved.status).toBe(200);
    expect(member.status).toBe(400);
    expect(member.body).toEqual({
      __type: 'UserLambdaValidationException',
      message:
        'PreAuthentication failed with error Your hospital signs in with single sign-on. Continue with your e-mail to sign in..',
    });
    expect(other.status).toBe(200);
    expect(await route.json()).toEqual({ redirect: false });

    // Act: disconnect; the password works again.
    const removed = await apiFetch(stack.url, token, '/api/hospital-admin/sso', { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect((await passwordSignIn(MEMBER)).status).toBe(200);
  });
});
