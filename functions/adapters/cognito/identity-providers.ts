import {
  CognitoIdentityProviderClient,
  CreateIdentityProviderCommand,
  DeleteIdentityProviderCommand,
  DescribeIdentityProviderCommand,
  DescribeUserPoolClientCommand,
  UpdateIdentityProviderCommand,
  UpdateUserPoolClientCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { prepareClient } from '#functions/adapters/aws-clients.ts';
import { IDP_AMR_ATTRIBUTE, IDP_GROUPS_ATTRIBUTE } from '#shared/domain/auth/id-token.ts';
import type { IdentityProviders, OidcProviderSpec } from '#shared/domain/settings/ports.ts';
import { updatableSettings } from './identity-admin.ts';

const isNotFound = (error: unknown) => error instanceof Error && error.name === 'ResourceNotFoundException';

/**
 * Hospitals' OpenID Connect providers in the one user pool (docs/sso.md#in-the-cloud). A provider is created or
 * updated with the hospital's e-mail domains as its identifiers and the claims the triggers read mapped onto
 * attributes; the site's app client then lists it (or not) among its SupportedIdentityProviders. UpdateUserPoolClient
 * resets every setting it is not given, so the client is described first and its settings are sent back as they were.
 * The client secret is sent to the user pool only; an update without one keeps the secret the provider holds.
 */
export function createIdentityProviders(options: {
  userPoolId: () => string;
  siteClientId: () => string;
  region: string;
  endpoint?: string;
  client?: CognitoIdentityProviderClient;
}): IdentityProviders {
  const client =
    options.client ??
    prepareClient(
      new CognitoIdentityProviderClient({
        region: options.region,
        ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      }),
    );

  async function existingSecret(name: string): Promise<string | undefined> {
    try {
      const { IdentityProvider } = await client.send(
        new DescribeIdentityProviderCommand({ UserPoolId: options.userPoolId(), ProviderName: name }),
      );
      return IdentityProvider?.ProviderDetails?.client_secret;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async function listOnSiteClient(name: string, listed: boolean): Promise<void> {
    const { UserPoolClient } = await client.send(
      new DescribeUserPoolClientCommand({ UserPoolId: options.userPoolId(), ClientId: options.siteClientId() }),
    );
    if (!UserPoolClient) throw new Error('The site app client was not found');
    const current = UserPoolClient.SupportedIdentityProviders ?? ['COGNITO'];
    const next = listed ? [...new Set([...current, name])] : current.filter((p) => p !== name);
    if (next.length === current.length && next.every((p) => current.includes(p))) return;
    await client.send(
      new UpdateUserPoolClientCommand({
        ...updatableSettings(UserPoolClient),
        UserPoolId: options.userPoolId(),
        SupportedIdentityProviders: next,
      }),
    );
  }

  function details(spec: OidcProviderSpec, clientSecret: string): Record<string, string> {
    return {
      client_id: spec.clientId,
      client_secret: clientSecret,
      authorize_scopes: 'openid email profile',
      oidc_issuer: spec.issuer,
      attributes_request_method: 'GET',
    };
  }

  /** What the triggers read: the e-mail and names, the provider's authentication methods and the user's groups. */
  function attributeMapping(spec: OidcProviderSpec): Record<string, string> {
    return {
      email: 'email',
      given_name: 'given_name',
      family_name: 'family_name',
      [IDP_AMR_ATTRIBUTE]: 'amr',
      [IDP_GROUPS_ATTRIBUTE]: spec.groupsClaim,
    };
  }

  return {
    async upsert(spec) {
      const held = await existingSecret(spec.name);
      if (held === undefined) {
        if (!spec.clientSecret) throw new Error(`The identity provider ${spec.name} needs a client secret`);
        await client.send(
          new CreateIdentityProviderCommand({
            UserPoolId: options.userPoolId(),
            ProviderName: spec.name,
            ProviderType: 'OIDC',
            ProviderDetails: details(spec, spec.clientSecret),
            AttributeMapping: attributeMapping(spec),
            IdpIdentifiers: [...spec.domains],
          }),
        );
      } else {
        await client.send(
          new UpdateIdentityProviderCommand({
            UserPoolId: options.userPoolId(),
            ProviderName: spec.name,
            ProviderDetails: details(spec, spec.clientSecret ?? held),
            AttributeMapping: attributeMapping(spec),
            IdpIdentifiers: [...spec.domains],
          }),
        );
      }
      await listOnSiteClient(spec.name, spec.enabled);
    },
    async remove(name) {
      await listOnSiteClient(name, false);
      try {
        await client.send(new DeleteIdentityProviderCommand({ UserPoolId: options.userPoolId(), ProviderName: name }));
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    },
  };
}
