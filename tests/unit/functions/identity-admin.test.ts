import {
  AdminAddUserToGroupCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminRemoveUserFromGroupCommand,
  AdminSetUserMFAPreferenceCommand,
  AdminUserGlobalSignOutCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createIdentityAdmin } from '#functions/adapters/cognito/identity-admin.ts';

const cognito = mockClient(CognitoIdentityProviderClient);
afterEach(() => cognito.reset());

const POOL = { UserPoolId: 'eu-west-1_Pool' };
const cloud = () =>
  createIdentityAdmin({
    region: 'eu-west-1',
    userPoolId: () => POOL.UserPoolId,
    client: new CognitoIdentityProviderClient({}),
  });

describe('identity administration (Cognito user pool)', () => {
  it('changes the group: the old one out, then the new one in', async () => {
    cognito.on(AdminRemoveUserFromGroupCommand).resolves({});
    cognito.on(AdminAddUserToGroupCommand).resolves({});
    await cloud().changeGroup('sub-1', 'TEAM_MEMBER', 'TEAM_LEAD');
    expect(cognito.commandCalls(AdminRemoveUserFromGroupCommand)[0]!.args[0].input).toEqual({
      ...POOL,
      Username: 'sub-1',
      GroupName: 'TEAM_MEMBER',
    });
    expect(cognito.commandCalls(AdminAddUserToGroupCommand)[0]!.args[0].input).toEqual({
      ...POOL,
      Username: 'sub-1',
      GroupName: 'TEAM_LEAD',
    });
  });

  it('disables, enables and signs out everywhere by the user id', async () => {
    cognito.on(AdminDisableUserCommand).resolves({});
    cognito.on(AdminEnableUserCommand).resolves({});
    cognito.on(AdminUserGlobalSignOutCommand).resolves({});
    const identity = cloud();
    await identity.disable('sub-2');
    await identity.signOut('sub-2');
    await identity.enable('sub-2');
    expect(cognito.commandCalls(AdminDisableUserCommand)[0]!.args[0].input).toEqual({ ...POOL, Username: 'sub-2' });
    expect(cognito.commandCalls(AdminUserGlobalSignOutCommand)[0]!.args[0].input).toEqual({
      ...POOL,
      Username: 'sub-2',
    });
    expect(cognito.commandCalls(AdminEnableUserCommand)[0]!.args[0].input).toEqual({ ...POOL, Username: 'sub-2' });
  });

  it("resets a user's two-factor: the authenticator app's software token turned off, by the user id", async () => {
    cognito.on(AdminSetUserMFAPreferenceCommand).resolves({});
    await cloud().resetMfa('sub-4');
    expect(cognito.commandCalls(AdminSetUserMFAPreferenceCommand)).toHaveLength(1);
    expect(cognito.commandCalls(AdminSetUserMFAPreferenceCommand)[0]!.args[0].input).toEqual({
      ...POOL,
      Username: 'sub-4',
      SoftwareTokenMfaSettings: { Enabled: false, PreferredMfa: false },
    });
    cognito
      .on(AdminSetUserMFAPreferenceCommand)
      .rejects(Object.assign(new Error('no user'), { name: 'UserNotFoundException' }));
    await expect(cloud().resetMfa('sub-5')).resolves.toBeUndefined();
  });

  it('lets a failed sign-out fail', async () => {
    cognito
      .on(AdminUserGlobalSignOutCommand)
      .rejects(Object.assign(new Error('denied'), { name: 'AccessDeniedException' }));
    await expect(cloud().signOut('sub-3')).rejects.toThrow('denied');
  });

  it('has nothing to change for a user record without an identity (invited, never signed up)', async () => {
    cognito.on(AdminDisableUserCommand).rejects(Object.assign(new Error('no user'), { name: 'UserNotFoundException' }));
    await expect(cloud().disable('invited-1')).resolves.toBeUndefined();
  });
});
