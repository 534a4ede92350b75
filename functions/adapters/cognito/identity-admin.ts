import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminGetUserCommand,
  AdminRemoveUserFromGroupCommand,
  AdminSetUserMFAPreferenceCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  AdminUserGlobalSignOutCommand,
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  DeleteUserPoolClientCommand,
  DescribeUserPoolClientCommand,
  UpdateUserPoolClientCommand,
  type UpdateUserPoolClientCommandInput,
  type UserPoolClientType,
} from '@aws-sdk/client-cognito-identity-provider';
import { prepareClient } from '#functions/adapters/aws-clients.ts';
import { ValidationError } from '#shared/domain/errors.ts';
import type { IdentityAdmin as MemberIdentity } from '#shared/domain/invitations/ports.ts';
import type { IdentityAdmin } from '#shared/domain/organisation/ports.ts';
import type { MachineClients } from '#shared/domain/integrations/ports.ts';

/**
 * The user pool's administration (docs/roles-and-permissions.md#identity-provider): each role is a group of the same
 * name; disabling an identity stops its sign-in; a global sign-out revokes its refresh tokens (the API refuses a
 * still valid ID token anyway, since its group no longer matches the user item).
 * Accepting an invitation (docs/domain.md#accepting-an-invitation) creates the identity: AdminCreateUser with the
 * hospital and team attributes and no Cognito e-mail (ours went out already), AdminSetUserPassword permanent, then
 * AdminAddUserToGroup with the role. An existing identity of the e-mail (a new hospital's first admin) is updated.
 * An admin's two-factor reset is AdminSetUserMFAPreference with the software token disabled.
 */
export function createIdentityAdmin(options: {
  userPoolId: () => string;
  region: string;
  endpoint?: string;
  client?: CognitoIdentityProviderClient;
}): IdentityAdmin & MemberIdentity {
  const client =
    options.client ??
    prepareClient(
      new CognitoIdentityProviderClient({
        region: options.region,
        ...(options.endpoint ? { endpoint: options.endpoint } : {}),
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
    async createMember(input) {
      const { UserPoolId } = pool();
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
    async resetMfa(username) {
      await send(() =>
        client.send(
          new AdminSetUserMFAPreferenceCommand({
            ...pool(),
            Username: username,
            SoftwareTokenMfaSettings: { Enabled: false, PreferredMfa: false },
          }),
        ),
      );
    },
    async signOut(username) {
      await send(() => client.send(new AdminUserGlobalSignOutCommand({ ...pool(), Username: username })));
    },
  };
}

/**
 * The settings of an app client that UpdateUserPoolClient takes, as DescribeUserPoolClient gave them. The update sets
 * every setting it is not given to its default (Amazon Cognito API reference, UpdateUserPoolClient), so each one is
 * passed on as it was: only the OAuth settings the caller names change.
 */
export function updatableSettings(described: UserPoolClientType): Omit<UpdateUserPoolClientCommandInput, 'UserPoolId'> {
  return {
    ClientId: described.ClientId,
    ClientName: described.ClientName,
    RefreshTokenValidity: described.RefreshTokenValidity,
    AccessTokenValidity: described.AccessTokenValidity,
    IdTokenValidity: described.IdTokenValidity,
    TokenValidityUnits: described.TokenValidityUnits,
    ReadAttributes: described.ReadAttributes,
    WriteAttributes: described.WriteAttributes,
    ExplicitAuthFlows: described.ExplicitAuthFlows,
    SupportedIdentityProviders: described.SupportedIdentityProviders,
    CallbackURLs: described.CallbackURLs,
    LogoutURLs: described.LogoutURLs,
    DefaultRedirectURI: described.DefaultRedirectURI,
    AllowedOAuthFlows: described.AllowedOAuthFlows,
    AllowedOAuthScopes: described.AllowedOAuthScopes,
    AllowedOAuthFlowsUserPoolClient: described.AllowedOAuthFlowsUserPoolClient,
    AnalyticsConfiguration: described.AnalyticsConfiguration,
    PreventUserExistenceErrors: described.PreventUserExistenceErrors,
    EnableTokenRevocation: described.EnableTokenRevocation,
    EnablePropagateAdditionalUserContextData: described.EnablePropagateAdditionalUserContextData,
    AuthSessionValidity: described.AuthSessionValidity,
    RefreshTokenRotation: described.RefreshTokenRotation,
  };
}

/**
 * App clients of DICOMweb integrations (docs/dicom-intake.md#dicomweb-clients): the client-credentials grant only,
 * with a generated secret and the DICOMweb resource server's scopes; access tokens live an hour. While the hospital is
 * deactivated (docs/dicom-intake.md#deactivation) the grant is turned off, so the token endpoint refuses the client
 * (`unauthorized_client`, RFC 6749 5.2); restore turns it on again with the integration's scopes. The client keeps its
 * id, secret and every other setting throughout.
 */
export function createMachineClients(options: {
  userPoolId: () => string;
  region: string;
  endpoint?: string;
  client?: CognitoIdentityProviderClient;
}): MachineClients {
  const client =
    options.client ??
    prepareClient(
      new CognitoIdentityProviderClient({
        region: options.region,
        ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      }),
    );
  return {
    async create(name, scopes) {
      const { UserPoolClient } = await client.send(
        new CreateUserPoolClientCommand({
          UserPoolId: options.userPoolId(),
          ClientName: name,
          GenerateSecret: true,
          AllowedOAuthFlows: ['client_credentials'],
          AllowedOAuthFlowsUserPoolClient: true,
          AllowedOAuthScopes: [...scopes],
          SupportedIdentityProviders: ['COGNITO'],
          AccessTokenValidity: 60,
          TokenValidityUnits: { AccessToken: 'minutes' },
          EnableTokenRevocation: true,
          PreventUserExistenceErrors: 'ENABLED',
        }),
      );
      if (!UserPoolClient?.ClientId || !UserPoolClient.ClientSecret) throw new Error('The app client has no secret');
      return { clientId: UserPoolClient.ClientId, clientSecret: UserPoolClient.ClientSecret };
    },
    async remove(clientId) {
      try {
        await client.send(new DeleteUserPoolClientCommand({ UserPoolId: options.userPoolId(), ClientId: clientId }));
      } catch (error) {
        if (error instanceof Error && error.name === 'ResourceNotFoundException') return;
        throw error;
      }
    },
    async suspend(clientId) {
      const described = await describe(clientId);
      if (!described) return;
      if (!described.AllowedOAuthFlowsUserPoolClient && !described.AllowedOAuthFlows?.length) return;
      // Without the OAuth flag the client may name no flows nor scopes; the integration keeps its scopes for resume.
      const settings = updatableSettings(described);
      delete settings.AllowedOAuthFlows;
      delete settings.AllowedOAuthScopes;
      await client.send(
        new UpdateUserPoolClientCommand({
          ...settings,
          UserPoolId: options.userPoolId(),
          AllowedOAuthFlowsUserPoolClient: false,
        }),
      );
    },
    async resume(clientId, scopes) {
      const described = await describe(clientId);
      if (!described) return;
      await client.send(
        new UpdateUserPoolClientCommand({
          ...updatableSettings(described),
          UserPoolId: options.userPoolId(),
          AllowedOAuthFlows: ['client_credentials'],
          AllowedOAuthFlowsUserPoolClient: true,
          AllowedOAuthScopes: [...scopes],
        }),
      );
    },
  };

  /** The app client's settings; undefined when it is gone (a revoke deleted it). */
  async function describe(clientId: string): Promise<UserPoolClientType | undefined> {
    try {
      const { UserPoolClient } = await client.send(
        new DescribeUserPoolClientCommand({ UserPoolId: options.userPoolId(), ClientId: clientId }),
      );
      return UserPoolClient;
    } catch (error) {
      if (error instanceof Error && error.name === 'ResourceNotFoundException') return undefined;
      throw error;
    }
  }
}
