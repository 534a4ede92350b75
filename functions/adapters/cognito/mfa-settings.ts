import { AdminGetUserCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';

/** The MFA methods a user has enabled in the pool (e.g. SOFTWARE_TOKEN_MFA), as Cognito reports them. */
export type MfaSettings = { enabledMethods(userPoolId: string, username: string): Promise<string[]> };

export function createMfaSettings(client = new CognitoIdentityProviderClient({})): MfaSettings {
  return {
    async enabledMethods(userPoolId, username) {
      const user = await client.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: username }));
      return user.UserMFASettingList ?? [];
    },
  };
}
