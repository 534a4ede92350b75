import { AdminGetUserCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { PreTokenGenerationTriggerEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { handler, preTokenGeneration } from '#functions/triggers/pre-token-generation.ts';
import { createMfaSettings } from '#functions/adapters/cognito/mfa-settings.ts';

const cognito = mockClient(CognitoIdentityProviderClient);
afterEach(() => cognito.reset());

function signIn(userAttributes: Record<string, string> = {}): PreTokenGenerationTriggerEvent {
  return {
    version: '1',
    triggerSource: 'TokenGeneration_Authentication',
    region: 'eu-west-1',
    userPoolId: 'eu-west-1_Pool',
    userName: 'user-1',
    callerContext: { awsSdkVersion: '3', clientId: 'site' },
    request: { userAttributes: { sub: 'sub-1', ...userAttributes }, groupConfiguration: {} as never },
    response: { claimsOverrideDetails: null as never },
  } as PreTokenGenerationTriggerEvent;
}

describe('pre-token-generation trigger (the mfa claim)', () => {
  it('marks the ID token of a local account with TOTP enabled, asking the pool about that user', async () => {
    cognito.on(AdminGetUserCommand).resolves({ Username: 'user-1', UserMFASettingList: ['SOFTWARE_TOKEN_MFA'] });
    const result = await handler(signIn());
    expect(result.response.claimsOverrideDetails).toEqual({ claimsToAddOrOverride: { mfa: 'totp' } });
    expect(cognito.commandCalls(AdminGetUserCommand).map((c) => c.args[0].input)).toEqual([
      { UserPoolId: 'eu-west-1_Pool', Username: 'user-1' },
    ]);
  });

  it('leaves the claim out (suppressed) for a local account without TOTP', async () => {
    cognito.on(AdminGetUserCommand).resolves({ Username: 'user-1', UserMFASettingList: [] });
    expect((await handler(signIn())).response.claimsOverrideDetails).toEqual({ claimsToSuppress: ['mfa'] });
    cognito.on(AdminGetUserCommand).resolves({ Username: 'user-1' });
    expect((await handler(signIn())).response.claimsOverrideDetails).toEqual({ claimsToSuppress: ['mfa'] });
  });

  it('vouches for a federated account only when its identity provider used a second factor, without asking the pool', async () => {
    const identities = '[{"providerName":"saml-northside"}]';
    const twoFactors = await handler(signIn({ identities, 'custom:idpAmr': '["pwd","mfa"]' }));
    expect(twoFactors.response.claimsOverrideDetails).toEqual({ claimsToAddOrOverride: { mfa: 'idp' } });
    const passwordOnly = await handler(signIn({ identities, 'custom:idpAmr': '["pwd"]' }));
    expect(passwordOnly.response.claimsOverrideDetails).toEqual({ claimsToSuppress: ['mfa'] });
    expect((await handler(signIn({ identities }))).response.claimsOverrideDetails).toEqual({
      claimsToSuppress: ['mfa'],
    });
    expect(cognito.commandCalls(AdminGetUserCommand)).toHaveLength(0);
  });
});

describe('pre-token-generation trigger (deactivated hospitals)', () => {
  it("issues no token to a deactivated hospital's users, and asks only about the user's own hospital", async () => {
    cognito.on(AdminGetUserCommand).resolves({ Username: 'user-1', UserMFASettingList: [] });
    const asked: string[] = [];
    const trigger = preTokenGeneration(createMfaSettings(new CognitoIdentityProviderClient({})), () => ({
      isDeactivated: async (hospitalId) => {
        asked.push(hospitalId);
        return hospitalId === 'hosp-closed';
      },
    }));
    await expect(trigger(signIn({ 'custom:hospitalId': 'hosp-closed' }))).rejects.toThrow(
      'This hospital has been deactivated.',
    );
    await expect(trigger(signIn({ 'custom:hospitalId': 'hosp-open' }))).resolves.toBeDefined();
    expect(asked).toEqual(['hosp-closed', 'hosp-open']);
  });
});
