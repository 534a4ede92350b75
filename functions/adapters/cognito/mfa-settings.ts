import { AdminGetUserCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { tracer } from '#functions/lib/tracer.ts';

/** The MFA methods a user has enabled in the pool (e.g. SOFTWARE_TOKEN_MFA), as Cognito reports them. */
export type MfaSettings = { enabledMethods(userPoolId: string, username: string): Promise<string[]> };

// Traced, but not through prepareClient: the trigger reads the pool under a policy of the auth stack's own, which its
// declaration (and so the grant check of its host) does not list.
export function createMfaSettings(
  client = tracer.captureAWSv3Client(new CognitoIdentityProviderClient({})),
): MfaSettings {
  return {
    async enabledMethods(userPoolId, username) {
      const user = await client.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: username }));
      return user.UserMFASettingList ?? [];
    },
  };
}
