import type { PreSignUpTriggerEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { DOMAIN_OF_NO_HOSPITAL, placeFederatedUser } from '#shared/domain/auth/federation.ts';
import { preSignUp } from '#functions/triggers/pre-sign-up.ts';

const providers = [
  { name: 'oidc-hosp-northside', hospitalId: 'hosp-northside', domain: 'northside.org' },
  { name: 'saml-hosp-lakeview', hospitalId: 'hosp-lakeview', domain: 'lakeview.org' },
];

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
      placeFederatedUser({ userName: 'OIDC-hosp-northside_8f2c1', email: 'robin@northside.org' }, providers),
    ).toEqual({ hospitalId: 'hosp-northside' });
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
