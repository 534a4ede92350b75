import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createPrivateKey } from 'node:crypto';
import { createRequire } from 'node:module';
import {
  AbortMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { DescribeExecutionCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { decodeJwt, importPKCS8, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { gatewayErrorBody, MAX_REQUEST_BODY_BYTES } from '#shared/definitions/api/gateway-errors.ts';
import { DEMO_USERS } from '#infra/local/seed/demo-data.ts';
import { TABLE_KEYS } from '#shared/definitions/table/table.ts';
import { EXIT_CODES, LocalStackError } from '#infra/local/data-dir.ts';
import { objectStoreCredentials } from '#infra/local/s3.ts';
import { localPseudonymSecretArn } from '#infra/local/function-runtime.ts';
import { createAwsDeps } from '#functions/adapters/index.ts';
import { ENV } from '#shared/definitions/env.ts';
import { BUCKETS, LOCAL_TABLE_NAME, startLocalStack } from '#infra/local/stack.ts';
import {
  apiFetch,
  signIn,
  startTestStack,
  tempDataDir,
  TEST_DEMO_PASSWORD,
  useTwinOnTempDir,
} from '#tests/helpers/local-stack.ts';
import { runNode, type NodeRun } from '#tests/helpers/run-node.ts';

/** Any key pair for the stand-ins that check none (table, state machine). */
const credentials = { accessKeyId: 'LOCAL', secretAccessKey: 'LOCAL' };

/** The object store checks signatures of the data folder's own key pair. */
function s3(url: string, dataDir: string) {
  return new S3Client({
    endpoint: `${url}/_aws/s3`,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: objectStoreCredentials(dataDir),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** Runs `npm start`'s entry as a child, as a user would; resolves with its exit code and output. */
function runStartCli(env: Record<string, string>, timeoutMs = 60_000): Promise<NodeRun> {
  return runNode(['--openssl-legacy-provider', '--import', 'tsx', 'infra/local/start.ts'], {
    env,
    timeoutMs,
    what: 'npm start',
  });
}

describe('local twin', () => {
  const twin = useTwinOnTempDir();

  it('answers /api/health with {"status":"ok"} when every service is up', async () => {
    const response = await fetch(`${twin.stack.url}/api/health`);
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(response.status).toBe(200);
  });

  it('gives the site its runtime settings at /config.json, with demo e-mails and roles but no password', async () => {
    const response = await fetch(`${twin.stack.url}/config.json`);
    expect(response.status).toBe(200);
    const config = (await response.json()) as Record<string, unknown>;
    expect(config).toMatchObject({
      region: 'us-east-1',
      mode: 'local',
      apiBaseUrl: `${twin.stack.url}/api`,
      userPoolEndpoint: `${twin.stack.url}/_aws/cognito`,
      // The hosted login of single sign-on is the Cognito stand-in's (docs/local-twin.md#single-sign-on).
      sso: { domain: `${new URL(twin.stack.url).host}/_aws/cognito` },
    });
    expect(config.userPoolId).toMatch(/\w+_\w+/);
    expect(typeof config.userPoolClientId).toBe('string');
    expect(config.demoAccounts).toEqual(DEMO_USERS.map(({ email, role }) => ({ email, role })));
    expect(JSON.stringify(config)).not.toContain(TEST_DEMO_PASSWORD);
  });

  it('signs in every demo user with USER_PASSWORD_AUTH; the ID token carries role group, hospital and team', async () => {
    for (const user of DEMO_USERS) {
      const claims = decodeJwt(await signIn(twin.stack.url, user.email));
      expect(claims).toMatchObject({
        email: user.email,
        token_use: 'id',
        'cognito:groups': [user.role],
        'custom:hospitalId': user.hospitalId,
      });
      if (user.teamId) expect(claims['custom:teamId']).toBe(user.teamId);
      expect(claims.iss).toBe(`${twin.stack.url}/_aws/cognito/${String(twin.stack.config.userPoolId)}`);
    }
  });

  it('refuses a wrong password as Cognito does', async () => {
    await expect(signIn(twin.stack.url, 'member@northside.demo.local', 'Wrong-Password-1!')).rejects.toThrow(
      'Invalid credentials',
    );
  });

  it('refreshes tokens through GetTokensFromRefreshToken (what Amplify calls), which cognito-local lacks', async () => {
    const endpoint = String(twin.stack.config.userPoolEndpoint);
    const call = (target: string, body: unknown) =>
      fetch(endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-amz-json-1.1',
          'x-amz-target': `AWSCognitoIdentityProviderService.${target}`,
        },
        body: JSON.stringify(body),
      }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as { AuthenticationResult?: { IdToken: string; RefreshToken?: string } },
      }));
    const first = await call('InitiateAuth', {
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: twin.stack.config.userPoolClientId,
      AuthParameters: { USERNAME: 'lead@lakeview.demo.local', PASSWORD: TEST_DEMO_PASSWORD },
    });
    const refreshed = await call('GetTokensFromRefreshToken', {
      ClientId: twin.stack.config.userPoolClientId,
      RefreshToken: first.body.AuthenticationResult!.RefreshToken,
    });
    expect(refreshed.status).toBe(200);
    expect(decodeJwt(refreshed.body.AuthenticationResult!.IdToken).email).toBe('lead@lakeview.demo.local');
  });

  it("signs in and refreshes with the site's library (Amplify, USER_PASSWORD_AUTH) through /_aws/cognito", async () => {
    const { Amplify } = await import('aws-amplify');
    const auth = await import('aws-amplify/auth');
    // Amplify warns on every custom user-pool endpoint; the twin's is the one under test.
    (await import('aws-amplify/utils')).ConsoleLogger.LOG_LEVEL = 'ERROR';
    Amplify.configure({
      Auth: {
        Cognito: {
          userPoolId: String(twin.stack.config.userPoolId),
          userPoolClientId: String(twin.stack.config.userPoolClientId),
          userPoolEndpoint: String(twin.stack.config.userPoolEndpoint),
          loginWith: { email: true },
        },
      },
    });
    const result = await auth.signIn({
      username: 'lead@northside.demo.local',
      password: TEST_DEMO_PASSWORD,
      options: { authFlowType: 'USER_PASSWORD_AUTH' },
    });
    expect(result.isSignedIn).toBe(true);
    const first = await auth.fetchAuthSession();
    const refreshed = await auth.fetchAuthSession({ forceRefresh: true });
    expect(refreshed.tokens?.idToken?.payload['cognito:groups']).toEqual(['TEAM_LEAD']);
    const me = await apiFetch(twin.stack.url, refreshed.tokens!.idToken!.toString(), '/api/me');
    expect(me.status).toBe(200);
    expect(first.tokens?.idToken?.payload.email).toBe('lead@northside.demo.local');
    await auth.signOut();
  });

  it('acts as the Cognito authorizer: no token, a forged token or an access token → 401 NO_TOKEN; unknown /api path → 404 ENDPOINT_NOT_IMPLEMENTED as API Gateway answers', async () => {
    const noToken = await apiFetch(twin.stack.url, undefined, '/api/me');
    expect(noToken.status).toBe(401);
    expect(await noToken.json()).toEqual({ error: { code: 'NO_TOKEN', message: 'No token found' } });
    const idToken = await signIn(twin.stack.url, 'member@northside.demo.local');
    const [header, payload] = idToken.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(342)}`;
    expect((await apiFetch(twin.stack.url, forged, '/api/me')).status).toBe(401);
    const accessToken = await fetch(String(twin.stack.config.userPoolEndpoint), {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth',
      },
      body: JSON.stringify({
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: twin.stack.config.userPoolClientId,
        AuthParameters: { USERNAME: 'member@northside.demo.local', PASSWORD: TEST_DEMO_PASSWORD },
      }),
    }).then(
      async (r) =>
        ((await r.json()) as { AuthenticationResult: { AccessToken: string } }).AuthenticationResult.AccessToken,
    );
    expect((await apiFetch(twin.stack.url, accessToken, '/api/me')).status).toBe(401);
    const unknown = await apiFetch(twin.stack.url, idToken, '/api/no-such-thing');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      error: { code: 'ENDPOINT_NOT_IMPLEMENTED', message: 'Endpoint not implemented' },
    });
    const me = await apiFetch(twin.stack.url, idToken, '/api/me');
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ user: { email: 'member@northside.demo.local', role: 'TEAM_MEMBER' } });
  });

  it('chains an audit event behind its request: the stream stand-in hands it to the appender, whose grants allow it', async () => {
    // Arrange
    const token = await signIn(twin.stack.url, 'admin@northside.demo.local');
    const verify = async () =>
      (await (await apiFetch(twin.stack.url, token, '/api/audit/verify', { method: 'POST', body: {} })).json()) as {
        verified: boolean;
        checkedEvents: number;
      };
    const verifiedEvents = async () =>
      (
        (await (await apiFetch(twin.stack.url, token, '/api/audit?action=AUDIT_CHAIN_VERIFIED')).json()) as {
          items: { seq?: number }[];
        }
      ).items;

    // Act: the verification's own event is written pending; the twin's stream chains it without being asked.
    const first = await verify();
    const deadline = Date.now() + 10_000;
    let events = await verifiedEvents();
    while (events.some((e) => e.seq === undefined) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      events = await verifiedEvents();
    }
    const second = await verify();

    // Assert
    expect(first.verified).toBe(true);
    expect(events).toHaveLength(1);
    expect(events[0]!.seq).toBeGreaterThan(0);
    expect(second).toMatchObject({ verified: true, checkedEvents: events[0]!.seq });
  });

  it('answers an oversized body with the same catalogue entry as the cloud gateway response', async () => {
    const tooLarge = await fetch(`${twin.stack.url}/api/datasets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(MAX_REQUEST_BODY_BYTES + 1),
    });
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.text()).toBe(gatewayErrorBody('bodyTooLarge'));
  });

  it("refuses an ID token signed with cognito-local's published key: the twin's pool signs with its data folder's own key", async () => {
    const genuine = decodeJwt(await signIn(twin.stack.url, 'member@northside.demo.local'));
    const published = JSON.parse(
      readFileSync(createRequire(import.meta.url).resolve('cognito-local/lib/keys/cognitoLocal.private.json'), 'utf8'),
    ) as { pem: string };
    const minted = await new SignJWT({ ...genuine, exp: Math.floor(Date.now() / 1000) + 3600 })
      .setProtectedHeader({ alg: 'RS256', kid: 'CognitoLocal' })
      .sign(
        await importPKCS8(
          published.pem.includes('BEGIN RSA')
            ? createPrivateKey(published.pem).export({ format: 'pem', type: 'pkcs8' }).toString()
            : published.pem,
          'RS256',
        ),
      );
    const response = await apiFetch(twin.stack.url, minted, '/api/me');
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: { code: 'NO_TOKEN', message: 'No token found' } });
    const jwks = (await (
      await fetch(`${twin.stack.config.userPoolEndpoint}/${String(twin.stack.config.userPoolId)}/.well-known/jwks.json`)
    ).json()) as { keys: { n: string }[] };
    const publishedPublic = JSON.parse(
      readFileSync(createRequire(import.meta.url).resolve('cognito-local/lib/keys/cognitoLocal.public.json'), 'utf8'),
    ) as { jwk: { n: string } };
    expect(jwks.keys.map((k) => k.n)).not.toContain(publishedPublic.jwk.n);
  });

  it("answers Cognito admin operations and the table only to the twin's own machine, never to a web page", async () => {
    const page = { origin: 'https://evil.example', 'content-type': 'application/x-amz-json-1.1' };
    const reset = await fetch(String(twin.stack.config.userPoolEndpoint), {
      method: 'POST',
      headers: { ...page, 'x-amz-target': 'AWSCognitoIdentityProviderService.AdminSetUserPassword' },
      body: JSON.stringify({
        UserPoolId: twin.stack.config.userPoolId,
        Username: 'admin@lakeview.demo.local',
        Password: 'Taken-Over-1!',
        Permanent: true,
      }),
    });
    expect(reset.status).toBe(403);
    expect(((await reset.json()) as { __type: string }).__type).toBe('MissingAuthenticationTokenException');
    expect(decodeJwt(await signIn(twin.stack.url, 'admin@lakeview.demo.local')).email).toBe(
      'admin@lakeview.demo.local',
    );
    const scan = await fetch(`${twin.stack.url}/_aws/dynamodb`, {
      method: 'POST',
      headers: { ...page, 'x-amz-target': 'DynamoDB_20120810.Scan' },
      body: JSON.stringify({ TableName: LOCAL_TABLE_NAME }),
    });
    expect(scan.status).toBe(403);
    const signInFromPage = await fetch(String(twin.stack.config.userPoolEndpoint), {
      method: 'POST',
      headers: { ...page, 'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth' },
      body: JSON.stringify({
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: twin.stack.config.userPoolClientId,
        AuthParameters: { USERNAME: 'lead@lakeview.demo.local', PASSWORD: TEST_DEMO_PASSWORD },
      }),
    });
    expect(signInFromPage.status).toBe(200);
  });

  it("serves the data folder's pseudonym key from its Secrets Manager, under the ARN it gives the functions, to this machine only", async () => {
    // Prepare
    const key = readFileSync(join(twin.stack.dataDir, 'pseudonym-secret'), 'utf8').trim();
    const arn = localPseudonymSecretArn('us-east-1');
    const client = new SecretsManagerClient({
      region: 'us-east-1',
      endpoint: `${twin.stack.url}/_aws/secretsmanager`,
      credentials,
    });

    // Act
    const answer = await client.send(new GetSecretValueCommand({ SecretId: arn }));
    // The twin's own process (seed, DICOM listener) reads it through the adapters, as the functions do.
    const inProcess = await (await createAwsDeps()).pseudonymSecret();
    const fromPage = await fetch(`${twin.stack.url}/_aws/secretsmanager`, {
      method: 'POST',
      headers: {
        origin: 'https://evil.example',
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': 'secretsmanager.GetSecretValue',
      },
      body: JSON.stringify({ SecretId: arn }),
    });

    // Assess
    expect(process.env[ENV.PSEUDONYM_SECRET_ARN]).toBe(arn);
    expect(answer).toMatchObject({ ARN: arn, SecretString: key });
    expect(inProcess).toBe(key);
    expect(fromPage.status).toBe(403);
    client.destroy();
  });

  it('serves presigned multipart uploads on the same origin, with ListParts and AbortMultipartUpload, and paginated listings', async () => {
    const client = s3(twin.stack.url, twin.dataDir);
    const Bucket = BUCKETS.uploads;
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key: 'h/d/raw/0' }));
    const url = await getSignedUrl(
      client,
      new UploadPartCommand({ Bucket, Key: 'h/d/raw/0', UploadId, PartNumber: 1 }),
      { expiresIn: 300 },
    );
    expect(url.startsWith(`${twin.stack.url}/_aws/s3/${Bucket}/`)).toBe(true);
    const put = await fetch(url, {
      method: 'PUT',
      body: new Uint8Array(1000).fill(7),
      headers: { origin: twin.stack.url },
    });
    expect(put.status).toBe(200);
    expect(put.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(put.headers.get('access-control-expose-headers')).toContain('ETag');
    const parts = await client.send(new ListPartsCommand({ Bucket, Key: 'h/d/raw/0', UploadId }));
    expect(parts.Parts?.map((p) => [p.PartNumber, p.ETag, p.Size])).toEqual([[1, put.headers.get('etag'), 1000]]);
    await client.send(new AbortMultipartUploadCommand({ Bucket, Key: 'h/d/raw/0', UploadId }));
    await expect(client.send(new ListPartsCommand({ Bucket, Key: 'h/d/raw/0', UploadId }))).rejects.toMatchObject({
      name: 'NoSuchUpload',
    });

    for (let i = 0; i < 5; i++)
      await client.send(new PutObjectCommand({ Bucket, Key: `page/${i}`, Body: `object ${i}` }));
    const first = await client.send(new ListObjectsV2Command({ Bucket, Prefix: 'page/', MaxKeys: 2 }));
    expect(first.IsTruncated).toBe(true);
    const second = await client.send(
      new ListObjectsV2Command({
        Bucket,
        Prefix: 'page/',
        MaxKeys: 10,
        ContinuationToken: first.NextContinuationToken,
      }),
    );
    expect([...(first.Contents ?? []), ...(second.Contents ?? [])].map((o) => o.Key)).toEqual(
      [0, 1, 2, 3, 4].map((i) => `page/${i}`),
    );
  });

  it('answers the Step Functions API for the pipeline state machine', async () => {
    const client = new SFNClient({ endpoint: `${twin.stack.url}/_aws/sfn`, region: 'us-east-1', credentials });
    await expect(
      client.send(
        new StartExecutionCommand({
          stateMachineArn: 'arn:aws:states:us-east-1:000000000000:stateMachine:other',
          input: '{}',
        }),
      ),
    ).rejects.toMatchObject({ name: 'StateMachineDoesNotExist' });
    await expect(
      client.send(
        new DescribeExecutionCommand({
          executionArn: 'arn:aws:states:us-east-1:000000000000:execution:imaging-local-pipeline:none',
        }),
      ),
    ).rejects.toMatchObject({ name: 'ExecutionDoesNotExist' });
  });

  it('refuses a second twin on the same data folder with a clear error (in-process and from npm start)', async () => {
    await expect(
      startLocalStack({ dataDir: twin.dataDir, port: 0, quiet: true, buildSite: false, warmFunctions: false }),
    ).rejects.toMatchObject({
      name: 'LocalStackError',
      exitCode: EXIT_CODES.DATA_DIR_IN_USE,
    });
    const cli = await runStartCli({ DATA_DIR: twin.dataDir, PORT: '0' });
    expect(cli.code).toBe(EXIT_CODES.DATA_DIR_IN_USE);
    expect(cli.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^Another local twin \(pid \d+\) is already running on the data folder /),
    ]);
  }, 60_000);

  it('refuses a port in use with one line and its exit code', async () => {
    const other = tempDataDir();
    try {
      const cli = await runStartCli({ DATA_DIR: other, PORT: String(twin.port) });
      expect(cli.code).toBe(EXIT_CODES.PORT_IN_USE);
      expect(cli.stderr.trim()).toBe(
        `Port ${twin.port} is already in use on 127.0.0.1; stop what uses it or set PORT to another port.`,
      );
      await expect(
        startLocalStack({ dataDir: other, port: twin.port, quiet: true, buildSite: false, warmFunctions: false }),
      ).rejects.toBeInstanceOf(LocalStackError);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  }, 60_000);

  it('keeps everything across a restart (table, objects, user pool, passwords) and restarts in seconds', async () => {
    const table = new DynamoDBClient({ endpoint: `${twin.stack.url}/_aws/dynamodb`, region: 'us-east-1', credentials });
    const key = { [TABLE_KEYS.primary.pk]: { S: 'H#restart-test' }, [TABLE_KEYS.primary.sk]: { S: 'MARKER' } };
    await table.send(new PutItemCommand({ TableName: LOCAL_TABLE_NAME, Item: { ...key, note: { S: 'kept' } } }));
    await s3(twin.stack.url, twin.dataDir).send(
      new PutObjectCommand({ Bucket: BUCKETS.assets, Key: 'restart/marker.txt', Body: 'kept' }),
    );
    const poolId = twin.stack.config.userPoolId;

    await twin.stack.stop();
    const started = Date.now();
    await twin.restart();
    const restartMs = Date.now() - started;
    expect(restartMs).toBeLessThan(10_000);

    expect(twin.stack.config.userPoolId).toBe(poolId);
    const item = await table.send(new GetItemCommand({ TableName: LOCAL_TABLE_NAME, Key: key }));
    expect(item.Item?.note?.S).toBe('kept');
    const object = await s3(twin.stack.url, twin.dataDir).send(
      new GetObjectCommand({ Bucket: BUCKETS.assets, Key: 'restart/marker.txt' }),
    );
    expect(await object.Body?.transformToString()).toBe('kept');
    expect(decodeJwt(await signIn(twin.stack.url, 'admin@lakeview.demo.local')).email).toBe(
      'admin@lakeview.demo.local',
    );
  }, 60_000);
});

describe('local twin demo password', () => {
  it('generates the demo password once, keeps it under the data folder and reuses it', async () => {
    const own = tempDataDir();
    try {
      const first = await startLocalStack({
        dataDir: own,
        port: 0,
        quiet: true,
        buildSite: false,
        warmFunctions: false,
      });
      const password = first.demoPassword;
      expect(first.demoPasswordCreated).toBe(true);
      expect(password).toMatch(/^(?=.*[A-Z])(?=.*[a-z])(?=.*\d)(?=.*[^A-Za-z0-9]).{12,}$/);
      await first.stop();
      const second = await startLocalStack({
        dataDir: own,
        port: 0,
        quiet: true,
        buildSite: false,
        warmFunctions: false,
      });
      try {
        expect(second.demoPasswordCreated).toBe(false);
        expect(second.demoPassword).toBe(password);
        expect(decodeJwt(await signIn(second.url, 'guest@northside.demo.local', password)).email).toBe(
          'guest@northside.demo.local',
        );
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('local twin site', () => {
  it('serves the site (web/dist, built first when missing or stale), unknown routes falling back to index.html', async () => {
    const site = await startTestStack({ buildSite: true });
    try {
      const home = await fetch(`${site.url}/`);
      expect(home.status).toBe(200);
      expect(home.headers.get('content-type')).toContain('text/html');
      const html = await home.text();
      expect(html).toMatch(/<script[^>]+src="\/assets\/[^"]+\.js"/);
      const deepLink = await fetch(`${site.url}/datasets/some-id`);
      expect(await deepLink.text()).toBe(html);
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
      const asset = await fetch(`${site.url}${script}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toContain('javascript');
      expect((await fetch(`${site.url}/assets/no-such-file.js`)).status).toBe(404);
    } finally {
      await site.dispose();
    }
  }, 120_000);
});
