import type { PreTokenGenerationTriggerEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preTokenGeneration } from '#functions/triggers/pre-token-generation.ts';
import { resetEnvCache } from '#functions/lib/env.ts';
import { useHarness } from '#tests/helpers/harness.ts';
import { claimsFor } from './datasets-harness.ts';

/**
 * The second factor through the real handlers in prod (docs/roles-and-permissions.md, docs/domain.md#two-factor-policy):
 * the super admin needs one like hospital admins and team leads, and a federated sign-in counts as one only when the
 * identity provider says a second factor was used, as the pool's pre-token-generation trigger writes it into the token.
 */
const SUPER_ADMIN = 'superadmin@demo.local';
const LEAD = 'lead@northside.demo.local';

const h = useHarness();
let stage: string | undefined;
beforeAll(() => {
  stage = process.env.STAGE;
  process.env.STAGE = 'prod';
  resetEnvCache();
});
afterAll(() => {
  if (stage === undefined) delete process.env.STAGE;
  else process.env.STAGE = stage;
  resetEnvCache();
});

/**
 * The ID token of a federated sign-in of `email` whose identity provider reported these authentication methods: the
 * user pool maps them into `custom:idpAmr`, the trigger decides the `mfa` claim, Cognito adds or suppresses it.
 */
async function federatedToken(email: string, idpAmr: string): Promise<Record<string, string>> {
  const base: Record<string, string> = {
    ...claimsFor(h.user(email)),
    identities: '[{"providerName":"oidc-hosp-northside"}]',
  };
  const trigger = preTokenGeneration({
    enabledMethods: async () => {
      throw new Error('a federated account is never looked up for TOTP');
    },
  });
  const event = await trigger({
    version: '1',
    triggerSource: 'TokenGeneration_HostedAuth',
    region: 'us-east-1',
    userPoolId: 'us-east-1_Harness',
    userName: `oidc-hosp-northside_${base.sub}`,
    callerContext: { awsSdkVersion: '3', clientId: 'harness-site-client' },
    request: {
      userAttributes: {
        sub: base.sub,
        'custom:hospitalId': base['custom:hospitalId'],
        identities: base.identities,
        'custom:idpAmr': idpAmr,
      },
      groupConfiguration: {} as never,
    },
    response: { claimsOverrideDetails: null as never },
  } as PreTokenGenerationTriggerEvent);
  const details = event.response.claimsOverrideDetails;
  const claims: Record<string, string> = { ...base, ...(details.claimsToAddOrOverride ?? {}) };
  for (const name of details.claimsToSuppress ?? []) delete claims[name];
  return claims;
}

describe('the second factor in prod', () => {
  it("refuses the super admin's token without a second factor with MFA_REQUIRED, and serves it with one", async () => {
    const refused = await h.call('GET', '/api/me', { as: SUPER_ADMIN });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('MFA_REQUIRED');
    const withTotp = { ...claimsFor(h.user(SUPER_ADMIN)), mfa: 'totp' };
    expect((await h.call('GET', '/api/me', { claims: withTotp })).status).toBe(200);
  });

  it('refuses a federated sign-in whose identity provider used a password only (amr ["pwd"])', async () => {
    const claims = await federatedToken(LEAD, '["pwd"]');
    expect(claims.mfa).toBeUndefined();
    const refused = await h.call('GET', '/api/me', { claims });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('MFA_REQUIRED');
  });

  it('serves a federated sign-in whose identity provider used a second factor (amr ["pwd","mfa"], SAML class)', async () => {
    const oidc = await federatedToken(LEAD, '["pwd","mfa"]');
    expect(oidc.mfa).toBe('idp');
    expect((await h.call('GET', '/api/me', { claims: oidc })).status).toBe(200);
    const saml = await federatedToken(LEAD, 'urn:oasis:names:tc:SAML:2.0:ac:classes:MobileTwoFactorContract');
    expect((await h.call('GET', '/api/me', { claims: saml })).status).toBe(200);
    // A provider that says nothing of its methods is not taken at its word.
    const silent = await federatedToken(LEAD, '');
    expect((await h.call('GET', '/api/me', { claims: silent })).body.error.code).toBe('MFA_REQUIRED');
  });
});
