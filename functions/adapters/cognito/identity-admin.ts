import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { ValidationError } from '#shared/domain/errors.ts';
import type { IdentityAdmin } from '#shared/domain/invitations/ports.ts';
import { prepareClient } from '#functions/adapters/aws-clients.ts';

/**
 * Accepting an invitation in the user pool (docs/domain.md#accepting-an-invitation): AdminCreateUser with the
 * hospital and team attributes and no Cognito e-mail (ours went out already), AdminSetUserPassword permanent, then
 * AdminAddUserToGroup with the role. An existing identity of the e-mail (a new hospital's first admin) is updated.
 */
export function createIdentityAdmin(options: {
  region: string;
  userPoolId: () => string;
  endpoint?: string;
  client?: CognitoIdentityProviderClient;
}): IdentityAdmin {
  const client =
    options.client ??
    prepareClient(
      new CognitoIdentityProviderClient({
        region: options.region,
        ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      }),
    );
  return {
    async createMember(input) {
      const UserPoolId = options.userPoolId();
      const attributes = [
        { Name: 'email', Value: input.email },
        { Name: 'email_verified', Value: 'true' },
        { Name: 'given_name', Value: input.firstName },
        { Name: 'family_name', Value: input.lastName },
        { Name: 'custom:hospitalId', Value: input.hospitalId },
        ...(input.teamId ? [{ Name: 'custom:teamId', Value: input.teamId }] : []),
      ];
      let username = input.email;
      let sub: string | undefined;
      try {
        const created = await client.send(
          new AdminCreateUserCommand({
            UserPoolId,
            Username: input.email,
            UserAttributes: attributes,
            MessageAction: 'SUPPRESS',
          }),
        );
        username = created.User?.Username ?? input.email;
        sub = created.User?.Attributes?.find((a) => a.Name === 'sub')?.Value;
      } catch (error) {
        if (!(error instanceof Error && error.name === 'UsernameExistsException')) throw error;
        await client.send(
          new AdminUpdateUserAttributesCommand({ UserPoolId, Username: username, UserAttributes: attributes }),
        );
      }
      try {
        await client.send(
          new AdminSetUserPasswordCommand({
            UserPoolId,
            Username: username,
            Password: input.password,
            Permanent: true,
          }),
        );
      } catch (error) {
        if (error instanceof Error && error.name === 'InvalidPasswordException')
          throw new ValidationError('VALIDATION_FAILED', {}, [{ path: 'password', message: error.message }]);
        throw error;
      }
      await client.send(new AdminAddUserToGroupCommand({ UserPoolId, Username: username, GroupName: input.role }));
      if (!sub) {
        const user = await client.send(new AdminGetUserCommand({ UserPoolId, Username: username }));
        sub = user.UserAttributes?.find((a) => a.Name === 'sub')?.Value ?? user.Username;
      }
      return sub!;
    },
  };
}
