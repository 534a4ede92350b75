import {
  AdminAddUserToGroupCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminRemoveUserFromGroupCommand,
  AdminUserGlobalSignOutCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { prepareClient } from '#functions/adapters/aws-clients.ts';
import type { IdentityAdmin } from '#shared/domain/organisation/ports.ts';

/**
 * The user pool's administration (docs/roles-and-permissions.md#identity-provider): each role is a group of the same
 * name; disabling an identity stops its sign-in; a global sign-out revokes its refresh tokens. The local twin's
 * Cognito stand-in has no global sign-out: there (`localStandIn`) an unsupported call is skipped, which
 * docs/local-twin.md notes; the API refuses the old token anyway, since its group no longer matches the user item.
 */
export function createIdentityAdmin(options: {
  userPoolId: () => string;
  region: string;
  endpoint?: string;
  client?: CognitoIdentityProviderClient;
}): IdentityAdmin {
  const local = Boolean(options.endpoint);
  const client =
    options.client ??
    prepareClient(
      new CognitoIdentityProviderClient({
        region: options.region,
        ...(options.endpoint
          ? { endpoint: options.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
          : {}),
      }),
    );
  const pool = () => ({ UserPoolId: options.userPoolId() });
  // A user record with no identity (invited, never signed up) cannot sign in: there is nothing to change for it.
  const send = async (call: () => Promise<unknown>) => {
    try {
      await call();
    } catch (error) {
      if (error instanceof Error && error.name === 'UserNotFoundException') return;
      throw error;
    }
  };
  return {
    async changeGroup(username, from, to) {
      await send(() =>
        client.send(new AdminRemoveUserFromGroupCommand({ ...pool(), Username: username, GroupName: from })),
      );
      await send(() => client.send(new AdminAddUserToGroupCommand({ ...pool(), Username: username, GroupName: to })));
    },
    async disable(username) {
      await send(() => client.send(new AdminDisableUserCommand({ ...pool(), Username: username })));
    },
    async enable(username) {
      await send(() => client.send(new AdminEnableUserCommand({ ...pool(), Username: username })));
    },
    async signOut(username) {
      try {
        await send(() => client.send(new AdminUserGlobalSignOutCommand({ ...pool(), Username: username })));
      } catch (error) {
        if (local && isUnsupported(error)) return;
        throw error;
      }
    },
  };
}

/** What the stand-in answers for an operation it does not implement. */
function isUnsupported(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /Unsupported|NotImplemented|UnknownOperation|not (yet )?(implemented|supported)/i.test(
    `${error.name} ${error.message}`,
  );
}
