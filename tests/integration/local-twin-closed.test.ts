import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { describe, expect, it } from 'vitest';
import { objectStoreCredentials } from '#infra/local/s3.ts';
import { BUCKETS } from '#infra/local/stack.ts';
import { signIn, TEST_DEMO_PASSWORD, useTwinOnTempDir } from '#tests/helpers/local-stack.ts';

/**
 * The twin's public port is closed to what a web page or another machine could do with it: object requests need
 * the data folder's signature, CORS is for the twin's own origin, keys never leave the data folder, password-reset
 * codes cannot be guessed from a page or by brute force, and a foreign Host (DNS rebinding) is refused.
 */
type RawResponse = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/** A request exactly as given (node:http): fetch() would normalise `..` and fix the Host header. */
function raw(
  base: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: init.method ?? 'GET', headers: init.headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

const EVIL = 'https://evil.example';
const USER = 'lead@lakeview.demo.local';

describe('the local twin, closed to web pages and other hosts', () => {
  const twin = useTwinOnTempDir();
  const client = () =>
    new S3Client({
      endpoint: `${twin.stack.url}/_aws/s3`,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: objectStoreCredentials(twin.dataDir),
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  const objectPath = (key: string) => `/_aws/s3/${BUCKETS.studies}/${key}`;

  it('refuses unsigned and wrongly signed object requests with 403 in S3 error XML; signed ones go through', async () => {
    await client().send(new PutObjectCommand({ Bucket: BUCKETS.studies, Key: 'h1/d1/secret', Body: 'phi' }));
    for (const [method, path] of [
      ['GET', objectPath('h1/d1/secret')],
      ['PUT', objectPath('h1/d1/secret')],
      ['DELETE', objectPath('h1/d1/secret')],
      ['GET', `/_aws/s3/${BUCKETS.studies}?list-type=2`],
    ] as const) {
      const response = await raw(twin.stack.url, path, { method, body: method === 'PUT' ? 'overwritten' : undefined });
      expect([method, path, response.status]).toEqual([method, path, 403]);
      expect(response.headers['content-type']).toBe('application/xml');
      expect(response.body).toMatch(/<Error><Code>AccessDenied<\/Code><Message>Access Denied<\/Message>/);
    }
    // Signed with s3rver's published key pair: not this twin's.
    const published = new S3Client({
      endpoint: `${twin.stack.url}/_aws/s3`,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    await expect(
      published.send(new GetObjectCommand({ Bucket: BUCKETS.studies, Key: 'h1/d1/secret' })),
    ).rejects.toMatchObject({ name: 'InvalidAccessKeyId', $metadata: { httpStatusCode: 403 } });
    const object = await client().send(new GetObjectCommand({ Bucket: BUCKETS.studies, Key: 'h1/d1/secret' }));
    expect(await object.Body?.transformToString()).toBe('phi');
  });

  it('refuses an expired presigned URL, and one whose expiry was stretched after signing', async () => {
    const expired = await getSignedUrl(
      client(),
      new GetObjectCommand({ Bucket: BUCKETS.studies, Key: 'h1/d1/secret' }),
      {
        expiresIn: 60,
        signingDate: new Date(Date.now() - 120_000),
      },
    );
    const response = await fetch(expired);
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('<Code>AccessDenied</Code><Message>Request has expired</Message>');
    const stretched = await fetch(expired.replace('X-Amz-Expires=60', 'X-Amz-Expires=3600'));
    expect(stretched.status).toBe(403);
    expect(await stretched.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
    const fresh = await getSignedUrl(client(), new GetObjectCommand({ Bucket: BUCKETS.studies, Key: 'h1/d1/secret' }), {
      expiresIn: 60,
    });
    expect((await fetch(fresh)).status).toBe(200);
  });

  it("gives CORS to the twin's own origin only: another origin gets neither a preflight nor an object", async () => {
    const url = await getSignedUrl(client(), new GetObjectCommand({ Bucket: BUCKETS.studies, Key: 'h1/d1/secret' }));
    const path = url.slice(twin.stack.url.length);
    const preflight = (origin: string) =>
      raw(twin.stack.url, path, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type' },
      });
    const foreign = await preflight(EVIL);
    expect(foreign.status).toBe(403);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    const own = await preflight(twin.stack.url);
    expect(own.status).toBe(200);
    expect(own.headers['access-control-allow-origin']).toBe(twin.stack.url);
    expect(own.headers['access-control-allow-headers']).toBe('content-type');

    const fromPage = await fetch(url, { headers: { origin: EVIL } });
    expect(fromPage.status).toBe(403);
    expect(fromPage.headers.get('access-control-allow-origin')).toBeNull();
    const fromSite = await fetch(url, { headers: { origin: twin.stack.url } });
    expect(fromSite.status).toBe(200);
    expect(fromSite.headers.get('access-control-allow-origin')).toBe(twin.stack.url);
  });

  it('refuses keys with . or .. segments, plain or encoded, and writes nothing outside the data folder', async () => {
    await expect(
      client().send(new PutObjectCommand({ Bucket: BUCKETS.uploads, Key: '../../escaped-sdk', Body: 'x' })),
    ).rejects.toMatchObject({ name: 'InvalidArgument', $metadata: { httpStatusCode: 400 } });
    for (const path of [
      `/_aws/s3/${BUCKETS.uploads}/../../escaped-plain`,
      `/_aws/s3/${BUCKETS.uploads}/%2e%2e/%2E%2E/escaped-encoded`,
      `/_aws/s3/${BUCKETS.uploads}/..%2F..%2Fescaped-slash`,
      `/_aws/s3/${BUCKETS.uploads}/h/./escaped-dot`,
      `/_aws/s3/../escaped-bucket`,
    ]) {
      const response = await raw(twin.stack.url, path, { method: 'PUT', body: 'x' });
      expect([path, response.status]).toEqual([path, 400]);
      expect(response.body).toContain('<Code>InvalidArgument</Code>');
    }
    const escaped = (dir: string) => readdirSync(dir).filter((name) => name.startsWith('escaped'));
    expect(escaped(twin.dataDir)).toEqual([]);
    expect(escaped(join(twin.dataDir, 's3'))).toEqual([]);
  });

  it('keeps the password reset from other pages, mails the code to /_mail, and voids it after 5 wrong guesses', async () => {
    const endpoint = String(twin.stack.config.userPoolEndpoint);
    const ClientId = twin.stack.config.userPoolClientId;
    const cognito = (operation: string, body: unknown, origin?: string) =>
      fetch(endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-amz-json-1.1',
          'x-amz-target': `AWSCognitoIdentityProviderService.${operation}`,
          ...(origin ? { origin } : {}),
        },
        body: JSON.stringify(body),
      });
    for (const operation of ['ForgotPassword', 'ConfirmForgotPassword']) {
      const fromPage = await cognito(
        operation,
        { ClientId, Username: USER, ConfirmationCode: '000000', Password: 'Taken-Over-1!' },
        'http://evil.example',
      );
      expect([operation, fromPage.status]).toEqual([operation, 403]);
    }

    expect((await cognito('ForgotPassword', { ClientId, Username: USER })).status).toBe(200);
    const code = issuedCode(twin.dataDir, String(twin.stack.config.userPoolId), USER);
    expect(code).toMatch(/^\d{6}$/);
    const mail = (await (await fetch(`${twin.stack.url}/_mail/messages.json`)).json()) as {
      items: { to: string; text: string; tag: string }[];
    };
    expect(mail.items.find((m) => m.tag === 'password-reset' && m.to === USER)?.text).toContain(code);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let attempt = 1; attempt <= 5; attempt++) {
      const guess = await cognito('ConfirmForgotPassword', {
        ClientId,
        Username: USER,
        ConfirmationCode: wrong,
        Password: 'Taken-Over-1!',
      });
      expect(((await guess.json()) as { __type: string }).__type).toBe('CodeMismatchException');
    }
    const right = await cognito('ConfirmForgotPassword', {
      ClientId,
      Username: USER,
      ConfirmationCode: code,
      Password: 'Taken-Over-1!',
    });
    expect(right.status).toBe(400);
    expect(((await right.json()) as { __type: string }).__type).toBe('LimitExceededException');
    expect(await signIn(twin.stack.url, USER, TEST_DEMO_PASSWORD)).toMatch(/^ey/);

    // A new code starts a new count.
    expect((await cognito('ForgotPassword', { ClientId, Username: USER })).status).toBe(200);
    const next = issuedCode(twin.dataDir, String(twin.stack.config.userPoolId), USER);
    const reset = await cognito('ConfirmForgotPassword', {
      ClientId,
      Username: USER,
      ConfirmationCode: next,
      Password: TEST_DEMO_PASSWORD,
    });
    expect(reset.status).toBe(200);
  });

  it('refuses a request whose Host is not the twin (DNS rebinding) on every path', async () => {
    const port = new URL(twin.stack.url).port;
    for (const path of ['/', '/config.json', '/api/health', objectPath('h1/d1/secret'), '/_aws/cognito']) {
      const response = await raw(twin.stack.url, path, { headers: { host: `evil.example:${port}` } });
      expect([path, response.status]).toEqual([path, 421]);
    }
    expect((await raw(twin.stack.url, '/config.json', { headers: { host: `localhost:${port}` } })).status).toBe(200);
    expect((await raw(twin.stack.url, '/config.json', { headers: { host: `127.0.0.1:${port}` } })).status).toBe(200);
  });
});

/** The code cognito-local keeps for the user (the twin delivers no e-mail; it only ever lands on this machine). */
function issuedCode(dataDir: string, userPoolId: string, email: string): string {
  const file = join(dataDir, 'cognito', '.cognito', 'db', `${userPoolId}.json`);
  expect(existsSync(file)).toBe(true);
  const db = JSON.parse(readFileSync(file, 'utf8')) as {
    Users: Record<string, { Attributes: { Name: string; Value: string }[]; ConfirmationCode?: string }>;
  };
  const user = Object.values(db.Users).find((u) => u.Attributes.some((a) => a.Name === 'email' && a.Value === email));
  return user?.ConfirmationCode ?? '';
}
