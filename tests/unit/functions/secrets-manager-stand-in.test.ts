import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSecretSource } from '#functions/adapters/secrets.ts';
import { LOCAL_PSEUDONYM_SECRET_NAME, localPseudonymSecretArn } from '#infra/local/function-runtime.ts';
import { handleSecretsManager, type LocalSecret } from '#infra/local/secrets-manager.ts';

describe("the twin's Secrets Manager", () => {
  const secret: LocalSecret = {
    arn: localPseudonymSecretArn('us-east-1'),
    name: LOCAL_PSEUDONYM_SECRET_NAME,
    value: 'the-data-folders-key',
    createdAt: new Date('2026-01-02T03:04:05Z'),
  };
  let server: Server;
  let endpoint = '';
  beforeAll(async () => {
    // The SDK signs every request; the stand-in accepts any key pair.
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'test');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'test');
    vi.stubEnv('AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED', 'true');
    server = createServer((req, res) => void handleSecretsManager(req, res, [secret]));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/_aws/secretsmanager`;
  });
  afterAll(() => {
    server.close();
    vi.unstubAllEnvs();
  });

  it('gives the production adapter the key under its ARN', async () => {
    // Prepare: the adapter every function uses, pointed at the stand-in as the twin points it.
    const source = createSecretSource({ region: 'us-east-1', secretArn: () => secret.arn, endpoint });

    // Act and assess
    expect(await source()).toBe('the-data-folders-key');
  });

  it('answers GetSecretValue as Secrets Manager does, by ARN or name, and ResourceNotFoundException otherwise', async () => {
    // Prepare
    const client = new SecretsManagerClient({ region: 'us-east-1', endpoint });

    // Act
    const byArn = await client.send(new GetSecretValueCommand({ SecretId: secret.arn }));
    const byName = await client.send(new GetSecretValueCommand({ SecretId: secret.name }));
    const unknown = await client.send(new GetSecretValueCommand({ SecretId: 'imaging-local/other' })).then(
      () => undefined,
      (error: unknown) => error as Error & { $metadata: { httpStatusCode?: number } },
    );

    // Assess
    expect(byArn).toMatchObject({
      ARN: secret.arn,
      Name: secret.name,
      SecretString: 'the-data-folders-key',
      VersionStages: ['AWSCURRENT'],
      CreatedDate: secret.createdAt,
    });
    expect(byArn.VersionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(byName.VersionId).toBe(byArn.VersionId);
    expect(unknown?.name).toBe('ResourceNotFoundException');
    expect(unknown?.$metadata.httpStatusCode).toBe(400);
    client.destroy();
  });
});
