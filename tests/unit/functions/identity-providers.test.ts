import {
  CognitoIdentityProviderClient,
  CreateIdentityProviderCommand,
  DeleteIdentityProviderCommand,
  DescribeIdentityProviderCommand,
  DescribeUserPoolClientCommand,
  UpdateIdentityProviderCommand,
  UpdateUserPoolClientCommand,
  type UserPoolClientType,
} from '@aws-sdk/client-cognito-identity-provider';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createIdentityProviders } from '#functions/adapters/cognito/identity-providers.ts';

const cognito = mockClient(CognitoIdentityProviderClient);
afterEach(() => cognito.reset());

const providers = () =>
  createIdentityProviders({
    region: 'eu-west-1',
    userPoolId: () => 'eu-west-1_Pool',
    siteClientId: () => 'site-client',
    client: new CognitoIdentityProviderClient({}),
  });

const gone = () => Object.assign(new Error('gone'), { name: 'ResourceNotFoundException' });

/** The site client as the stack made it: everything UpdateUserPoolClient would reset if it were not sent back. */
const SITE_CLIENT: UserPoolClientType = {
  UserPoolId: 'eu-west-1_Pool',
  ClientId: 'site-client',
  ClientName: 'imaging-dev-site',
  IdTokenValidity: 60,
  AccessTokenValidity: 60,
  RefreshTokenValidity: 1,
  TokenValidityUnits: { IdToken: 'minutes', AccessToken: 'minutes', RefreshToken: 'days' },
  ReadAttributes: ['email', 'custom:hospitalId'],
  WriteAttributes: ['given_name', 'family_name', 'custom:idpAmr', 'custom:idpGroups'],
  ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
  SupportedIdentityProviders: ['COGNITO'],
  CallbackURLs: ['https://site.example/'],
  LogoutURLs: ['https://site.example/'],
  AllowedOAuthFlows: ['code'],
  AllowedOAuthScopes: ['openid', 'email', 'profile'],
  AllowedOAuthFlowsUserPoolClient: true,
  PreventUserExistenceErrors: 'ENABLED',
  EnableTokenRevocation: true,
};

const SPEC = {
  name: 'oidc-hosp-northside',
  issuer: 'https://idp.northside.example',
  clientId: 'iws',
  domains: ['northside.example'],
  groupsClaim: 'groups',
  enabled: true,
};

describe("hospitals' OIDC providers in the user pool (Cognito)", () => {
  it('creates the provider with its domains and mapped claims, then lists it on the site client as it was', async () => {
    // Arrange
    cognito.on(DescribeIdentityProviderCommand).rejects(gone());
    cognito.on(CreateIdentityProviderCommand).resolves({});
    cognito.on(DescribeUserPoolClientCommand).resolves({ UserPoolClient: SITE_CLIENT });
    cognito.on(UpdateUserPoolClientCommand).resolves({});
    // Act
    await providers().upsert({ ...SPEC, clientSecret: 'secret-1' });
    // Assert
    expect(cognito.commandCalls(CreateIdentityProviderCommand)[0]!.args[0].input).toEqual({
      UserPoolId: 'eu-west-1_Pool',
      ProviderName: 'oidc-hosp-northside',
      ProviderType: 'OIDC',
      ProviderDetails: {
        client_id: 'iws',
        client_secret: 'secret-1',
        authorize_scopes: 'openid email profile',
        oidc_issuer: 'https://idp.northside.example',
        attributes_request_method: 'GET',
      },
      AttributeMapping: {
        email: 'email',
        given_name: 'given_name',
        family_name: 'family_name',
        'custom:idpAmr': 'amr',
        'custom:idpGroups': 'groups',
      },
      IdpIdentifiers: ['northside.example'],
    });
    // UpdateUserPoolClient resets what it is not given: every described setting goes back, with the provider added.
    const { UserPoolId: _pool, ...settings } = SITE_CLIENT;
    expect(cognito.commandCalls(UpdateUserPoolClientCommand)[0]!.args[0].input).toEqual({
      ...settings,
      UserPoolId: 'eu-west-1_Pool',
      SupportedIdentityProviders: ['COGNITO', 'oidc-hosp-northside'],
    });
  });

  it('updates an existing provider keeping the secret it holds, and takes it off the site client when switched off', async () => {
    // Arrange
    cognito.on(DescribeIdentityProviderCommand).resolves({
      IdentityProvider: { ProviderName: 'oidc-hosp-northside', ProviderDetails: { client_secret: 'held' } },
    });
    cognito.on(UpdateIdentityProviderCommand).resolves({});
    cognito.on(DescribeUserPoolClientCommand).resolves({
      UserPoolClient: { ...SITE_CLIENT, SupportedIdentityProviders: ['COGNITO', 'oidc-hosp-northside'] },
    });
    cognito.on(UpdateUserPoolClientCommand).resolves({});
    // Act
    await providers().upsert({ ...SPEC, domains: ['northside.example', 'ns.example'], enabled: false });
    // Assert
    expect(cognito.commandCalls(CreateIdentityProviderCommand)).toHaveLength(0);
    expect(cognito.commandCalls(UpdateIdentityProviderCommand)[0]!.args[0].input).toMatchObject({
      ProviderName: 'oidc-hosp-northside',
      ProviderDetails: { client_secret: 'held', client_id: 'iws' },
      IdpIdentifiers: ['northside.example', 'ns.example'],
    });
    expect(cognito.commandCalls(UpdateUserPoolClientCommand)[0]!.args[0].input).toMatchObject({
      ClientId: 'site-client',
      CallbackURLs: ['https://site.example/'],
      AllowedOAuthFlows: ['code'],
      SupportedIdentityProviders: ['COGNITO'],
    });
  });

  it('leaves the site client alone when its list is already right', async () => {
    cognito
      .on(DescribeIdentityProviderCommand)
      .resolves({ IdentityProvider: { ProviderDetails: { client_secret: 's' } } });
    cognito.on(UpdateIdentityProviderCommand).resolves({});
    cognito.on(DescribeUserPoolClientCommand).resolves({
      UserPoolClient: { ...SITE_CLIENT, SupportedIdentityProviders: ['COGNITO', 'oidc-hosp-northside'] },
    });
    await providers().upsert(SPEC);
    expect(cognito.commandCalls(UpdateUserPoolClientCommand)).toHaveLength(0);
  });

  it('refuses to create a provider without a secret', async () => {
    cognito.on(DescribeIdentityProviderCommand).rejects(gone());
    await expect(providers().upsert(SPEC)).rejects.toThrow('needs a client secret');
    expect(cognito.commandCalls(CreateIdentityProviderCommand)).toHaveLength(0);
  });

  it('removes the provider from the site client, then deletes it; a provider already gone is not an error', async () => {
    // Arrange
    cognito.on(DescribeUserPoolClientCommand).resolves({
      UserPoolClient: { ...SITE_CLIENT, SupportedIdentityProviders: ['COGNITO', 'oidc-hosp-northside'] },
    });
    cognito.on(UpdateUserPoolClientCommand).resolves({});
    cognito.on(DeleteIdentityProviderCommand).rejects(gone());
    // Act
    await providers().remove('oidc-hosp-northside');
    // Assert
    expect(cognito.commandCalls(UpdateUserPoolClientCommand)[0]!.args[0].input.SupportedIdentityProviders).toEqual([
      'COGNITO',
    ]);
    expect(cognito.commandCalls(DeleteIdentityProviderCommand)[0]!.args[0].input).toEqual({
      UserPoolId: 'eu-west-1_Pool',
      ProviderName: 'oidc-hosp-northside',
    });
  });
});

describe("hospitals' SAML 2.0 providers in the user pool (Cognito)", () => {
  const SAML = {
    type: 'SAML' as const,
    name: 'saml-hosp-northside',
    domains: ['northside.example'],
    groupsClaim: 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups',
    enabled: true,
  };
  const SAML_MAPPING = {
    email: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
    given_name: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
    family_name: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
    'custom:idpAmr': 'http://schemas.microsoft.com/claims/authnmethodsreferences',
    'custom:idpGroups': 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups',
  };

  it('creates a SAML provider from its metadata URL with the claim types mapped, then lists it on the site client', async () => {
    // Arrange
    cognito.on(DescribeIdentityProviderCommand).rejects(gone());
    cognito.on(CreateIdentityProviderCommand).resolves({});
    cognito.on(DescribeUserPoolClientCommand).resolves({ UserPoolClient: SITE_CLIENT });
    cognito.on(UpdateUserPoolClientCommand).resolves({});

    // Act
    await providers().upsert({ ...SAML, metadataUrl: 'https://idp.northside.example/federationmetadata.xml' });

    // Assert
    expect(cognito.commandCalls(CreateIdentityProviderCommand)[0]!.args[0].input).toEqual({
      UserPoolId: 'eu-west-1_Pool',
      ProviderName: 'saml-hosp-northside',
      ProviderType: 'SAML',
      ProviderDetails: { MetadataURL: 'https://idp.northside.example/federationmetadata.xml' },
      AttributeMapping: SAML_MAPPING,
      IdpIdentifiers: ['northside.example'],
    });
    expect(cognito.commandCalls(UpdateUserPoolClientCommand)[0]!.args[0].input.SupportedIdentityProviders).toEqual([
      'COGNITO',
      'saml-hosp-northside',
    ]);
  });

  it('updates a SAML provider with a metadata file, and keeps the metadata it holds when given none', async () => {
    // Arrange
    const xml = '<EntityDescriptor entityID="https://idp.northside.example/saml"/>';
    cognito.on(DescribeIdentityProviderCommand).resolves({
      IdentityProvider: {
        ProviderName: 'saml-hosp-northside',
        ProviderType: 'SAML',
        ProviderDetails: { MetadataFile: '<held/>', SSORedirectBindingURI: 'https://idp.northside.example/sso' },
      },
    });
    cognito.on(UpdateIdentityProviderCommand).resolves({});
    cognito.on(DescribeUserPoolClientCommand).resolves({
      UserPoolClient: { ...SITE_CLIENT, SupportedIdentityProviders: ['COGNITO', 'saml-hosp-northside'] },
    });

    // Act
    await providers().upsert({ ...SAML, metadataXml: xml });
    await providers().upsert({ ...SAML, domains: ['northside.example', 'ns.example'] });

    // Assert
    const updates = cognito.commandCalls(UpdateIdentityProviderCommand).map((c) => c.args[0].input);
    expect(updates[0]).toEqual({
      UserPoolId: 'eu-west-1_Pool',
      ProviderName: 'saml-hosp-northside',
      ProviderDetails: { MetadataFile: xml },
      AttributeMapping: SAML_MAPPING,
      IdpIdentifiers: ['northside.example'],
    });
    expect(updates[1]).toMatchObject({
      ProviderDetails: { MetadataFile: '<held/>' },
      IdpIdentifiers: ['northside.example', 'ns.example'],
    });
    expect(cognito.commandCalls(CreateIdentityProviderCommand)).toHaveLength(0);
  });

  it('refuses to create a SAML provider without metadata', async () => {
    cognito.on(DescribeIdentityProviderCommand).rejects(gone());
    await expect(providers().upsert(SAML)).rejects.toThrow('needs its SAML metadata');
    expect(cognito.commandCalls(CreateIdentityProviderCommand)).toHaveLength(0);
  });
});
