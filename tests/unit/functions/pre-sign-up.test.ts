import type { PreSignUpTriggerEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { DOMAIN_OF_NO_HOSPITAL, placeFederatedUser } from '#shared/domain/auth/federation.ts';
import { preSignUp } from '#functions/triggers/pre-sign-up.ts';
import { createMemorySsoStore } from '#functions/adapters/memory/sso-store.ts';
import type { SsoSettings } from '#shared/schemas/api/sso.ts';

/** Two hospitals that connected their providers on the SSO tab (docs/sso.md). */
const store = createMemorySsoStore();
const connected = (hospitalId: string, domain: string): SsoSettings => ({
  issuer: `https://idp.${domain}`,
  clientId: 'iws',
  domains: [domain],
  groupsClaim: 'groups',
  roleMappings: [],
  enabled: true,
  ssoOnly: false,
  providerName: `oidc-${hospitalId}`,
  updatedAt: '2026-03-01T09:00:00.000Z',
  updatedByUserId: 'admin',
});
await store.save('hosp-northside', connected('hosp-northside', 'northside.org'));
await store.save('hosp-lakeview', connected('hosp-lakeview', 'lakeview.org'));
const providers = async () => store;

/** A pre-sign-up event as Cognito sends it for a first sign-in through an external provider. */
function externalSignUp(userName: string, email: string): PreSignUpTriggerEvent {
  return {
    version: '1',
    region: 'eu-west-1',
    userPoolId: 'eu-west-1_Pool',
    userName,
    callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId: 'site-client' },
    triggerSource: 'PreSignUp_ExternalProvider',
    request: { userAttributes: { email, 'cognito:email_alias': '' }, validationData: {} },
    response: { autoConfirmUser: false, autoVerifyEmail: false, autoVerifyPhone: false },
  } as PreSignUpTriggerEvent;
}

describe('federated sign-up (pre-sign-up trigger)', () => {
  it("lets a hospital's provider in for its own domain, confirmed and verified", async () => {
    const event = await preSignUp(providers)(externalSignUp('oidc-hosp-northside_8f2c1', 'Robin@Northside.org'));
    expect(event.response).toMatchObject({ autoConfirmUser: true, autoVerifyEmail: true });
    expect(
      (await placeFederatedUser({ userName: 'OIDC-hosp-northside_8f2c1', email: 'robin@northside.org' }, store))
        .hospitalId,
    ).toBe('hosp-northside');
  });

  it('refuses a domain that belongs to no hospital, or to another hospital than the provider', async () => {
    for (const [userName, email] of [
      ['oidc-hosp-northside_1', 'robin@gmail.com'],
      ['oidc-hosp-northside_1', 'robin@lakeview.org'],
      ['oidc-unknown_1', 'robin@northside.org'],
      ['nounderscore', 'robin@northside.org'],
    ] as const)
      await expect(preSignUp(providers)(externalSignUp(userName, email))).rejects.toThrow(DOMAIN_OF_NO_HOSPITAL);
  });

  it('leaves other sign-ups (accounts created for accepted invitations) unchanged', async () => {
    const event = { ...externalSignUp('robin@x.test', 'robin@x.test'), triggerSource: 'PreSignUp_AdminCreateUser' };
    const out = await preSignUp(providers)(event as PreSignUpTriggerEvent);
    expect(out.response.autoConfirmUser).toBe(false);
  });
});
