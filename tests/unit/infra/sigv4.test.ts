import { Readable } from 'node:stream';
import { GetObjectCommand, PutObjectCommand, S3Client, UploadPartCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { HttpRequest } from '@smithy/types';
import { describe, expect, it } from 'vitest';
import { checkSignature, type ArrivedRequest } from '#infra/local/sigv4.ts';

const ENDPOINT = 'http://127.0.0.1:3999/_aws/s3';
const credentials = { accessKeyId: 'TWINKEY', secretAccessKey: 'twin-secret' };

function client(keys = credentials, handle?: (request: HttpRequest) => void): S3Client {
  return new S3Client({
    endpoint: ENDPOINT,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: keys,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    ...(handle
      ? {
          requestHandler: {
            handle: async (request: HttpRequest) => {
              handle(request);
              return { response: { statusCode: 200, headers: {}, body: Readable.from([]) } };
            },
          },
        }
      : {}),
  });
}

/** What a presigned URL looks like when it arrives: the path and query as sent, the Host header. */
function arrivedFromUrl(url: string, method = 'GET', extra: Record<string, string> = {}): ArrivedRequest {
  const parsed = new URL(url);
  return { method, url: `${parsed.pathname}${parsed.search}`, headers: { host: parsed.host, ...extra } };
}

/** The request the SDK would send (Authorization header), captured before the wire. */
async function arrivedFromSdk(
  command: PutObjectCommand | GetObjectCommand,
  keys = credentials,
): Promise<ArrivedRequest> {
  let captured: HttpRequest | undefined;
  await client(keys, (request) => (captured = request)).send(command as PutObjectCommand);
  const request = captured!;
  const search = Object.entries(request.query ?? {})
    .map(([name, value]) =>
      value === null ? name : `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`,
    )
    .join('&');
  const headers = Object.fromEntries(Object.entries(request.headers).map(([n, v]) => [n.toLowerCase(), v]));
  return { method: request.method, url: `${request.path}${search ? `?${search}` : ''}`, headers };
}

describe('SigV4 check of the twin object store', () => {
  it("accepts the SDK's presigned URLs and header-signed requests made with the twin's credentials", async () => {
    const get = await getSignedUrl(client(), new GetObjectCommand({ Bucket: 'b', Key: 'h/d/raw/a b+c.dcm' }), {
      expiresIn: 60,
    });
    expect(await checkSignature(arrivedFromUrl(get), credentials)).toBeUndefined();
    const part = await getSignedUrl(
      client(),
      new UploadPartCommand({ Bucket: 'b', Key: 'h/d/raw/0', UploadId: 'u-1', PartNumber: 3 }),
      { expiresIn: 300 },
    );
    expect(await checkSignature(arrivedFromUrl(part, 'PUT'), credentials)).toBeUndefined();
    const put = await arrivedFromSdk(new PutObjectCommand({ Bucket: 'b', Key: 'k/1', Body: 'hello' }));
    expect(put.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 /);
    expect(await checkSignature(put, credentials)).toBeUndefined();
  });

  it('refuses unsigned requests, other keys, tampered requests and expired URLs', async () => {
    expect(await checkSignature({ method: 'GET', url: '/_aws/s3/b/k', headers: { host: 'x' } }, credentials)).toEqual({
      code: 'AccessDenied',
      message: 'Access Denied',
    });

    const signedAt = Date.UTC(2026, 0, 1, 12, 0, 0);
    const url = await getSignedUrl(client(), new GetObjectCommand({ Bucket: 'b', Key: 'h/x' }), {
      expiresIn: 60,
      signingDate: new Date(signedAt),
    });
    expect(await checkSignature(arrivedFromUrl(url), credentials, signedAt + 59_000)).toBeUndefined();
    expect(await checkSignature(arrivedFromUrl(url), credentials, signedAt + 61_000)).toMatchObject({
      code: 'AccessDenied',
      message: 'Request has expired',
    });
    // Another object, another method, another host, a longer life: the signature no longer matches.
    const now = signedAt + 1000;
    expect(await checkSignature(arrivedFromUrl(url.replace('/h/x', '/h/y')), credentials, now)).toMatchObject({
      code: 'SignatureDoesNotMatch',
    });
    expect(await checkSignature(arrivedFromUrl(url, 'DELETE'), credentials, now)).toMatchObject({
      code: 'SignatureDoesNotMatch',
    });
    expect(
      await checkSignature({ ...arrivedFromUrl(url), headers: { host: 'evil.example:3999' } }, credentials, now),
    ).toMatchObject({ code: 'SignatureDoesNotMatch' });
    expect(
      await checkSignature(arrivedFromUrl(url.replace('X-Amz-Expires=60', 'X-Amz-Expires=600')), credentials, now),
    ).toMatchObject({ code: 'SignatureDoesNotMatch' });

    // Signed with the published s3rver pair instead of the twin's own.
    const foreign = await getSignedUrl(
      client({ accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }),
      new GetObjectCommand({ Bucket: 'b', Key: 'h/x' }),
    );
    expect(await checkSignature(arrivedFromUrl(foreign), credentials)).toMatchObject({ code: 'InvalidAccessKeyId' });
    const guessed = await getSignedUrl(
      client({ accessKeyId: credentials.accessKeyId, secretAccessKey: 'guess' }),
      new GetObjectCommand({ Bucket: 'b', Key: 'h/x' }),
    );
    expect(await checkSignature(arrivedFromUrl(guessed), credentials)).toMatchObject({
      code: 'SignatureDoesNotMatch',
    });

    const put = await arrivedFromSdk(new PutObjectCommand({ Bucket: 'b', Key: 'k/1', Body: 'hello' }));
    expect(await checkSignature({ ...put, url: put.url.replace('k/1', 'k/2') }, credentials)).toMatchObject({
      code: 'SignatureDoesNotMatch',
    });
    expect(await checkSignature(put, credentials, Date.now() + 16 * 60_000)).toMatchObject({
      code: 'RequestTimeTooSkewed',
    });
  });
});
