import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchRuntimeConfig } from '#cli/commands/upload.ts';
import { apiFetch, signIn, startTestStack, TEST_DEMO_PASSWORD, type TestStack } from '#tests/helpers/local-stack.ts';

/**
 * An administrator's two-factor reset through the twin (docs/roles-and-permissions.md#two-factor-reset): a member
 * turns on an authenticator app, so the Cognito stand-in challenges every sign-in; the hospital admin resets it over
 * the API (AdminSetUserMFAPreference, which the twin's stand-in answers), and the password alone signs in again.
 */
let stack: TestStack;
let endpoint: string;
let clientId: string;

beforeAll(async () => {
  stack = await startTestStack();
  const config = await fetchRuntimeConfig(stack.url);
  endpoint = config.signInEndpoint;
  clientId = config.userPoolClientId;
}, 120_000);
afterAll(async () => {
  await stack?.dispose();
});

/** RFC 6238 TOTP (SHA-1, 30 s, 6 digits) over a base32 (RFC 4648) key, as an authenticator app computes it. */
function totp(secret: string, at = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of secret.replace(/=+$/, '').toUpperCase())
    bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

async function cognito(operation: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': `AWSCognitoIdentityProviderService.${operation}`,
    },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, any>;
  if (!response.ok) throw new Error(`${operation}: ${answer.__type} ${answer.message}`);
  return answer;
}

const passwordSignIn = (email: string) =>
  cognito('InitiateAuth', {
    AuthFlow: 'USER_PASSWORD_AUTH',
    ClientId: clientId,
    AuthParameters: { USERNAME: email, PASSWORD: TEST_DEMO_PASSWORD },
  });

describe("an administrator's two-factor reset through the twin", () => {
  it('turns the authenticator off so the password alone signs in again', async () => {
    // Prepare: the member enrols an authenticator app.
    const email = 'member@northside.demo.local';
    const first = await passwordSignIn(email);
    const accessToken = first.AuthenticationResult.AccessToken as string;
    const idToken = first.AuthenticationResult.IdToken as string;
    const sub = JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString()).sub as string;
    const { SecretCode } = await cognito('AssociateSoftwareToken', { AccessToken: accessToken });
    await cognito('VerifySoftwareToken', { AccessToken: accessToken, UserCode: totp(SecretCode) });
    await cognito('SetUserMFAPreference', {
      AccessToken: accessToken,
      SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
    });
    expect((await passwordSignIn(email)).ChallengeName).toBe('SOFTWARE_TOKEN_MFA');

    // Act
    const admin = await signIn(stack.url, 'admin@northside.demo.local');
    const reset = await apiFetch(stack.url, admin, `/api/users/${sub}/reset-mfa`, { method: 'POST', body: {} });

    // Assess
    expect(reset.status).toBe(200);
    expect(((await reset.json()) as { email: string }).email).toBe(email);
    const after = await passwordSignIn(email);
    expect(after.ChallengeName).toBeUndefined();
    expect(after.AuthenticationResult.IdToken).toBeTruthy();
    const other = await signIn(stack.url, 'admin@lakeview.demo.local');
    expect((await apiFetch(stack.url, other, `/api/users/${sub}/reset-mfa`, { method: 'POST', body: {} })).status).toBe(
      404,
    );
  });
});
