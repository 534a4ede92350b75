import {
  AdminAddUserToGroupCommand,
  AdminGetUserCommand,
  AdminRemoveUserFromGroupCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import type { PreTokenGenerationTriggerEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { handler, preTokenGeneration } from '#functions/triggers/pre-token-generation.ts';
import { createMfaSettings } from '#functions/adapters/cognito/mfa-settings.ts';
import { createMemoryOrganisation } from '#functions/adapters/memory/organisation.ts';
import { createMemorySsoStore } from '#functions/adapters/memory/sso-store.ts';
import { createMemorySettingsStore } from '#functions/adapters/memory/settings-store.ts';
import { createMemoryAuditLog } from '#functions/adapters/memory/audit-log.ts';
import type { UserRecord } from '#shared/domain/auth/ports.ts';
import { ACCOUNT_DISABLED_MESSAGE } from '#shared/domain/organisation/federated-sign-in.ts';
import { DEFAULT_PERMISSIONS } from '#shared/vocabulary/roles.ts';

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

describe('pre-token-generation trigger (later federated sign-ins and refreshes, docs/sso.md#later-sign-ins)', () => {
  const hospitalId = 'hosp-northside';
  const userName = 'oidc-hosp-northside_8f2c1';

  /** Northside's provider maps its radiology leads to Team Lead and its IT admins to Hospital Admin. */
  async function northside(user: Partial<UserRecord> = {}) {
    const org = createMemoryOrganisation();
    const sso = createMemorySsoStore();
    await sso.save(hospitalId, {
      issuer: 'https://idp.northside.org',
      clientId: 'iws',
      domains: ['northside.org'],
      groupsClaim: 'groups',
      roleMappings: [
        { group: 'radiology-leads', role: 'TEAM_LEAD' },
        { group: 'it-admins', role: 'HOSPITAL_ADMIN' },
      ],
      enabled: true,
      ssoOnly: false,
      providerName: 'oidc-hosp-northside',
      updatedAt: '2026-03-01T09:00:00.000Z',
      updatedByUserId: 'admin',
    });
    const record: UserRecord = {
      id: 'sub-fed-1',
      email: 'robin@northside.org',
      firstName: 'Robin',
      lastName: 'Lee',
      role: 'TEAM_MEMBER',
      status: 'ACTIVE',
      hospitalId,
      teamId: null,
      permissions: [...DEFAULT_PERMISSIONS.TEAM_MEMBER],
      createdAt: '2026-03-01T09:00:00.000Z',
      ...user,
    };
    await org.store.putUser(record);
    const audit = createMemoryAuditLog();
    const trigger = preTokenGeneration(
      createMfaSettings(new CognitoIdentityProviderClient({})),
      undefined,
      async () => ({
        directory: org.store,
        organisation: org.store,
        sso,
        settings: createMemorySettingsStore({ hospitals: [hospitalId] }),
        audit,
        clock: { now: () => '2026-03-02T09:00:00.000Z' },
        cognito: new CognitoIdentityProviderClient({ region: 'eu-west-1' }),
      }),
    );
    return { org, audit, trigger };
  }

  /** The event of a federated user's token: the pool's attributes as the provider's last sign-in mapped them. */
  function federatedToken(
    triggerSource: 'TokenGeneration_HostedAuth' | 'TokenGeneration_RefreshTokens',
    attributes: Record<string, string>,
    groups: string[],
  ): PreTokenGenerationTriggerEvent {
    const event = signIn({
      'custom:hospitalId': hospitalId,
      sub: 'sub-fed-1',
      email: 'robin@northside.org',
      identities: JSON.stringify([{ providerName: 'oidc-hosp-northside', providerType: 'OIDC', userId: '8f2c1' }]),
      ...attributes,
    });
    return {
      ...event,
      triggerSource,
      userName,
      request: { ...event.request, groupConfiguration: { groupsToOverride: groups, iamRolesToOverride: [] } },
    } as PreTokenGenerationTriggerEvent;
  }

  it('gives a later sign-in the name and role of the claims: record, pool group, token groups and an audited role change', async () => {
    // Arrange
    cognito.onAnyCommand().resolves({});
    const { org, audit, trigger } = await northside();
    const event = federatedToken(
      'TokenGeneration_HostedAuth',
      { given_name: 'Robin', family_name: 'Lee-Okafor', 'custom:idpGroups': '["staff","radiology-leads"]' },
      ['TEAM_MEMBER'],
    );

    // Act
    const result = await trigger(event);

    // Assert
    expect(org.users.get(`${hospitalId}/sub-fed-1`)).toEqual(
      expect.objectContaining({
        role: 'TEAM_LEAD',
        permissions: [...DEFAULT_PERMISSIONS.TEAM_LEAD],
        firstName: 'Robin',
        lastName: 'Lee-Okafor',
      }),
    );
    expect(cognito.commandCalls(AdminRemoveUserFromGroupCommand).map((c) => c.args[0].input)).toEqual([
      { UserPoolId: 'eu-west-1_Pool', Username: userName, GroupName: 'TEAM_MEMBER' },
    ]);
    expect(cognito.commandCalls(AdminAddUserToGroupCommand).map((c) => c.args[0].input)).toEqual([
      { UserPoolId: 'eu-west-1_Pool', Username: userName, GroupName: 'TEAM_LEAD' },
    ]);
    expect(result.response.claimsOverrideDetails.groupOverrideDetails).toEqual({ groupsToOverride: ['TEAM_LEAD'] });
    expect(audit.events).toEqual([
      expect.objectContaining({
        hospitalId,
        action: 'USER_ROLE_CHANGED',
        actorUserId: 'idp:oidc-hosp-northside',
        actorName: 'Identity provider oidc-hosp-northside',
        details: expect.objectContaining({
          userId: 'sub-fed-1',
          by: 'IDENTITY_PROVIDER',
          before: expect.objectContaining({ role: 'TEAM_MEMBER' }),
          after: expect.objectContaining({ role: 'TEAM_LEAD' }),
        }),
      }),
    ]);
  });

  it('leaves the role alone when the groups still map to it, or when the provider released no groups', async () => {
    // Arrange
    cognito.onAnyCommand().resolves({});
    const { org, audit, trigger } = await northside({ role: 'TEAM_LEAD' });

    // Act
    const same = await trigger(
      federatedToken('TokenGeneration_HostedAuth', { 'custom:idpGroups': 'radiology-leads' }, ['TEAM_LEAD']),
    );
    const noGroups = await trigger(federatedToken('TokenGeneration_HostedAuth', {}, ['TEAM_LEAD']));

    // Assert
    expect(org.users.get(`${hospitalId}/sub-fed-1`)!.role).toBe('TEAM_LEAD');
    expect(same.response.claimsOverrideDetails.groupOverrideDetails).toBeUndefined();
    expect(noGroups.response.claimsOverrideDetails.groupOverrideDetails).toBeUndefined();
    expect(cognito.commandCalls(AdminAddUserToGroupCommand)).toHaveLength(0);
    expect(audit.events).toEqual([]);
  });

  it("keeps the hospital's last active admin an admin when the provider's groups no longer say so", async () => {
    // Arrange
    cognito.onAnyCommand().resolves({});
    const { org, audit, trigger } = await northside({
      role: 'HOSPITAL_ADMIN',
      permissions: [...DEFAULT_PERMISSIONS.HOSPITAL_ADMIN],
    });

    // Act
    const result = await trigger(
      federatedToken('TokenGeneration_HostedAuth', { 'custom:idpGroups': '[]' }, ['HOSPITAL_ADMIN']),
    );

    // Assert
    expect(org.users.get(`${hospitalId}/sub-fed-1`)!.role).toBe('HOSPITAL_ADMIN');
    expect(result.response.claimsOverrideDetails.groupOverrideDetails).toBeUndefined();
    expect(cognito.commandCalls(AdminRemoveUserFromGroupCommand)).toHaveLength(0);
    expect(audit.events).toEqual([]);
  });

  it('refuses the refresh of a user SCIM or an admin disabled, and changes nothing at a refresh of an active user', async () => {
    // Arrange
    cognito.onAnyCommand().resolves({});
    const active = await northside();
    const disabled = await northside({ status: 'DISABLED' });
    const refresh = () =>
      federatedToken('TokenGeneration_RefreshTokens', { 'custom:idpGroups': 'radiology-leads' }, ['TEAM_MEMBER']);

    // Act
    const refused = disabled.trigger(refresh());
    const refreshed = await active.trigger(refresh());

    // Assert
    await expect(refused).rejects.toThrow(ACCOUNT_DISABLED_MESSAGE);
    // A refresh carries the attributes of the last sign-in: only a sign-in applies the provider's groups.
    expect(active.org.users.get(`${hospitalId}/sub-fed-1`)!.role).toBe('TEAM_MEMBER');
    expect(refreshed.response.claimsOverrideDetails.groupOverrideDetails).toBeUndefined();
    expect(cognito.commandCalls(AdminAddUserToGroupCommand)).toHaveLength(0);
  });

  it('refuses a sign-in of a disabled user, local accounts included', async () => {
    // Arrange
    cognito.on(AdminGetUserCommand).resolves({ Username: 'user-1', UserMFASettingList: [] });
    const { trigger } = await northside({ status: 'DISABLED' });

    // Act
    const local = trigger(signIn({ 'custom:hospitalId': hospitalId, sub: 'sub-fed-1' }));
    const federated = trigger(federatedToken('TokenGeneration_HostedAuth', {}, ['TEAM_MEMBER']));

    // Assert
    await expect(local).rejects.toThrow(ACCOUNT_DISABLED_MESSAGE);
    await expect(federated).rejects.toThrow(ACCOUNT_DISABLED_MESSAGE);
  });
});
