import {
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  DeleteUserPoolClientCommand,
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
});
