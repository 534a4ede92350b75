import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createIdentityAdmin } from '#functions/adapters/cognito/identity-admin.ts';
import { ValidationError } from '#shared/domain/errors.ts';

const cognito = mockClient(CognitoIdentityProviderClient);
const admin = createIdentityAdmin({
  region: 'eu-west-1',
  userPoolId: () => 'eu-west-1_Pool',
  client: new CognitoIdentityProviderClient({ region: 'eu-west-1' }),
});
const member = {
  email: 'robin@x.test',
  firstName: 'Robin',
  lastName: 'Lee',
  hospitalId: 'hosp-northside',
  teamId: 'team-1',
  role: 'TEAM_MEMBER' as const,
  password: 'Joining-Pass-2026!',
};
const named = (name: string) => Object.assign(new Error(name), { name });

beforeEach(() => cognito.reset());

describe('accepting an invitation in the user pool', () => {
  it('creates the user with the hospital and team attributes, no Cognito e-mail, a permanent password and the group', async () => {
    cognito.on(AdminCreateUserCommand).resolves({
      User: { Username: 'robin@x.test', Attributes: [{ Name: 'sub', Value: 'sub-robin' }] },
    });
    expect(await admin.createMember(member)).toBe('sub-robin');
    const create = cognito.commandCalls(AdminCreateUserCommand)[0]!.args[0].input;
    expect(create).toMatchObject({ UserPoolId: 'eu-west-1_Pool', Username: 'robin@x.test', MessageAction: 'SUPPRESS' });
    expect(create.UserAttributes).toEqual(
      expect.arrayContaining([
        { Name: 'custom:hospitalId', Value: 'hosp-northside' },
        { Name: 'custom:teamId', Value: 'team-1' },
        { Name: 'email_verified', Value: 'true' },
      ]),
    );
    expect(cognito.commandCalls(AdminSetUserPasswordCommand)[0]!.args[0].input).toMatchObject({
      Password: member.password,
      Permanent: true,
    });
    expect(cognito.commandCalls(AdminAddUserToGroupCommand)[0]!.args[0].input.GroupName).toBe('TEAM_MEMBER');
  });

  it('takes over the existing identity of the e-mail (a first admin created earlier)', async () => {
    cognito.on(AdminCreateUserCommand).rejects(named('UsernameExistsException'));
    cognito
      .on(AdminGetUserCommand)
      .resolves({ Username: 'robin@x.test', UserAttributes: [{ Name: 'sub', Value: 'sub-old' }] });
    expect(await admin.createMember(member)).toBe('sub-old');
    expect(cognito.commandCalls(AdminUpdateUserAttributesCommand)).toHaveLength(1);
  });

  it("answers the pool's password refusal as a validation error on the password", async () => {
    cognito.on(AdminCreateUserCommand).resolves({ User: { Username: 'robin@x.test', Attributes: [] } });
    cognito.on(AdminSetUserPasswordCommand).rejects(named('InvalidPasswordException'));
    const error = await admin.createMember(member).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details).toEqual([{ path: 'password', message: 'InvalidPasswordException' }]);
    expect(cognito.commandCalls(AdminAddUserToGroupCommand)).toHaveLength(0);
  });
});
