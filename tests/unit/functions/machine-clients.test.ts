import {
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  DeleteUserPoolClientCommand,
  DescribeUserPoolClientCommand,
  UpdateUserPoolClientCommand,
  type UserPoolClientType,
} from '@aws-sdk/client-cognito-identity-provider';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createMachineClients } from '#functions/adapters/cognito/identity-admin.ts';

const cognito = mockClient(CognitoIdentityProviderClient);
afterEach(() => cognito.reset());

const clients = () =>
  createMachineClients({
    region: 'eu-west-1',
    userPoolId: () => 'eu-west-1_Pool',
    client: new CognitoIdentityProviderClient({}),
  });

describe('app clients of DICOMweb integrations (Cognito)', () => {
  it('creates a client-credentials app client with a secret and the resource server scopes', async () => {
    // Arrange
    cognito.on(CreateUserPoolClientCommand).resolves({ UserPoolClient: { ClientId: 'c-1', ClientSecret: 's-1' } });
    // Act
    const created = await clients().create('dicomweb-h-1', ['imaging-dicomweb/read', 'imaging-dicomweb/write']);
    // Assert
    expect(created).toEqual({ clientId: 'c-1', clientSecret: 's-1' });
    expect(cognito.commandCalls(CreateUserPoolClientCommand)[0]!.args[0].input).toMatchObject({
      UserPoolId: 'eu-west-1_Pool',
      ClientName: 'dicomweb-h-1',
      GenerateSecret: true,
      AllowedOAuthFlows: ['client_credentials'],
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthScopes: ['imaging-dicomweb/read', 'imaging-dicomweb/write'],
      AccessTokenValidity: 60,
      TokenValidityUnits: { AccessToken: 'minutes' },
    });
  });

  it('refuses an app client that came back without a secret', async () => {
    cognito.on(CreateUserPoolClientCommand).resolves({ UserPoolClient: { ClientId: 'c-1' } });
    await expect(clients().create('x', [])).rejects.toThrow('no secret');
  });

  it('deletes the app client on revoke, and a client already gone is not an error', async () => {
    // Arrange
    const gone = Object.assign(new Error('gone'), { name: 'ResourceNotFoundException' });
    cognito.on(DeleteUserPoolClientCommand, { ClientId: 'c-1' }).resolves({});
    cognito.on(DeleteUserPoolClientCommand, { ClientId: 'c-2' }).rejects(gone);
    // Act
    await clients().remove('c-1');
    await clients().remove('c-2');
    // Assert
    expect(cognito.commandCalls(DeleteUserPoolClientCommand).map((c) => c.args[0].input)).toEqual([
      { UserPoolId: 'eu-west-1_Pool', ClientId: 'c-1' },
      { UserPoolId: 'eu-west-1_Pool', ClientId: 'c-2' },
    ]);
  });

  /** An app client as DescribeUserPoolClient answers for one made by `create` (secret and dates included). */
  const described: UserPoolClientType = {
    UserPoolId: 'eu-west-1_Pool',
    ClientId: 'c-1',
    ClientName: 'dicomweb-h-1',
    ClientSecret: 's-1',
    LastModifiedDate: new Date('2026-01-01T00:00:00Z'),
    CreationDate: new Date('2026-01-01T00:00:00Z'),
    RefreshTokenValidity: 30,
    AccessTokenValidity: 60,
    TokenValidityUnits: { AccessToken: 'minutes', RefreshToken: 'days' },
    SupportedIdentityProviders: ['COGNITO'],
    AllowedOAuthFlows: ['client_credentials'],
    AllowedOAuthScopes: ['imaging-dicomweb/read'],
    AllowedOAuthFlowsUserPoolClient: true,
    PreventUserExistenceErrors: 'ENABLED',
    EnableTokenRevocation: true,
    AuthSessionValidity: 3,
  };
  /** What UpdateUserPoolClient must be given again, since it resets every setting it is not given. */
  const kept = {
    UserPoolId: 'eu-west-1_Pool',
    ClientId: 'c-1',
    ClientName: 'dicomweb-h-1',
    RefreshTokenValidity: 30,
    AccessTokenValidity: 60,
    TokenValidityUnits: { AccessToken: 'minutes', RefreshToken: 'days' },
    SupportedIdentityProviders: ['COGNITO'],
    PreventUserExistenceErrors: 'ENABLED',
    EnableTokenRevocation: true,
    AuthSessionValidity: 3,
  };
  const defined = (input: object) => Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));

  it('suspends a client: described, then updated with its settings kept and the OAuth grant off', async () => {
    // Arrange
    cognito.on(DescribeUserPoolClientCommand).resolves({ UserPoolClient: described });
    cognito.on(UpdateUserPoolClientCommand).resolves({});
    // Act
    await clients().suspend('c-1');
    // Assert
    expect(cognito.commandCalls(DescribeUserPoolClientCommand)[0]!.args[0].input).toEqual({
      UserPoolId: 'eu-west-1_Pool',
      ClientId: 'c-1',
    });
    const update = cognito.commandCalls(UpdateUserPoolClientCommand)[0]!.args[0].input;
    expect(defined(update)).toEqual({ ...kept, AllowedOAuthFlowsUserPoolClient: false });
  });

  it('resumes a client with the client-credentials grant and the scopes given, its other settings kept', async () => {
    // Arrange
    const suspended = { ...described, AllowedOAuthFlowsUserPoolClient: false };
    delete suspended.AllowedOAuthFlows;
    delete suspended.AllowedOAuthScopes;
    cognito.on(DescribeUserPoolClientCommand).resolves({ UserPoolClient: suspended });
    cognito.on(UpdateUserPoolClientCommand).resolves({});
    // Act
    await clients().resume('c-1', ['imaging-dicomweb/read', 'imaging-dicomweb/write']);
    // Assert
    const update = cognito.commandCalls(UpdateUserPoolClientCommand)[0]!.args[0].input;
    expect(defined(update)).toEqual({
      ...kept,
      AllowedOAuthFlows: ['client_credentials'],
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthScopes: ['imaging-dicomweb/read', 'imaging-dicomweb/write'],
    });
  });

  it('leaves a client already suspended or gone as it is', async () => {
    // Arrange
    const gone = Object.assign(new Error('gone'), { name: 'ResourceNotFoundException' });
    cognito
      .on(DescribeUserPoolClientCommand, { ClientId: 'c-1' })
      .resolves({ UserPoolClient: { ...described, AllowedOAuthFlows: [], AllowedOAuthFlowsUserPoolClient: false } });
    cognito.on(DescribeUserPoolClientCommand, { ClientId: 'c-2' }).rejects(gone);
    // Act
    await clients().suspend('c-1');
    await clients().suspend('c-2');
    await clients().resume('c-2', ['imaging-dicomweb/read']);
    // Assert
    expect(cognito.commandCalls(DescribeUserPoolClientCommand)).toHaveLength(3);
    expect(cognito.commandCalls(UpdateUserPoolClientCommand)).toHaveLength(0);
  });
});
