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
import type {
  IdentityProviders,
  IdentityProviderSpec,
  OidcProviderSpec,
  SamlProviderSpec,
} from '#shared/domain/settings/ports.ts';
import { updatableSettings } from './identity-admin.ts';

const isNotFound = (error: unknown) => error instanceof Error && error.name === 'ResourceNotFoundException';

/**
 * The SAML attributes the pool maps (docs/sso.md#saml-providers): the claim types Microsoft Entra ID and AD FS send,
 * which Okta and others can be set to send too.
 */
export const SAML_ATTRIBUTES = {
  email: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  givenName: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
  familyName: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
  authnMethods: 'http://schemas.microsoft.com/claims/authnmethodsreferences',
} as const;

/**
 * Hospitals' OpenID Connect and SAML 2.0 providers in the one user pool (docs/sso.md#in-the-cloud). A provider is created or
 * updated with the hospital's e-mail domains as its identifiers and the claims the triggers read mapped onto
 * attributes; the site's app client then lists it (or not) among its SupportedIdentityProviders. UpdateUserPoolClient
 * resets every setting it is not given, so the client is described first and its settings are sent back as they were.
 * The client secret is sent to the user pool only; an update without one keeps the secret the provider holds. A SAML
 * provider's details are its metadata, by URL (MetadataURL) or as a file (MetadataFile); an update without either keeps
 * the metadata the provider holds.
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

  async function existingDetails(name: string): Promise<Record<string, string> | undefined> {
    try {
      const { IdentityProvider } = await client.send(
        new DescribeIdentityProviderCommand({ UserPoolId: options.userPoolId(), ProviderName: name }),
      );
      return IdentityProvider ? (IdentityProvider.ProviderDetails ?? {}) : undefined;
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

  /** The SAML provider's details: its metadata as given, or else the metadata the provider holds. */
  function samlDetails(spec: SamlProviderSpec, held: Record<string, string> | undefined): Record<string, string> {
    if (spec.metadataUrl) return { MetadataURL: spec.metadataUrl };
    if (spec.metadataXml) return { MetadataFile: spec.metadataXml };
    if (held?.MetadataURL) return { MetadataURL: held.MetadataURL };
    if (held?.MetadataFile) return { MetadataFile: held.MetadataFile };
    throw new Error(`The identity provider ${spec.name} needs its SAML metadata`);
  }

  function samlAttributeMapping(spec: SamlProviderSpec): Record<string, string> {
    return {
      email: SAML_ATTRIBUTES.email,
      given_name: SAML_ATTRIBUTES.givenName,
      family_name: SAML_ATTRIBUTES.familyName,
      [IDP_AMR_ATTRIBUTE]: SAML_ATTRIBUTES.authnMethods,
      [IDP_GROUPS_ATTRIBUTE]: spec.groupsClaim,
    };
  }

  function providerOf(spec: IdentityProviderSpec, held: Record<string, string> | undefined) {
    if (spec.type === 'SAML')
      return { ProviderType: 'SAML' as const, details: samlDetails(spec, held), mapping: samlAttributeMapping(spec) };
    const secret = spec.clientSecret ?? held?.client_secret;
    if (!secret) throw new Error(`The identity provider ${spec.name} needs a client secret`);
    return { ProviderType: 'OIDC' as const, details: details(spec, secret), mapping: attributeMapping(spec) };
  }

  return {
    async upsert(spec) {
      const held = await existingDetails(spec.name);
      const provider = providerOf(spec, held);
      if (held === undefined) {
        await client.send(
          new CreateIdentityProviderCommand({
            UserPoolId: options.userPoolId(),
            ProviderName: spec.name,
            ProviderType: provider.ProviderType,
            ProviderDetails: provider.details,
            AttributeMapping: provider.mapping,
            IdpIdentifiers: [...spec.domains],
          }),
        );
      } else {
        await client.send(
          new UpdateIdentityProviderCommand({
            UserPoolId: options.userPoolId(),
            ProviderName: spec.name,
            ProviderDetails: provider.details,
            AttributeMapping: provider.mapping,
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
