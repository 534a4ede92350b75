/**
 * The twin's KMS and its Object Lock bucket (docs/local-twin.md#stand-ins) behind the production adapters: digests are
 * signed by the KMS stand-in over the SDK's JSON protocol and verified with its public key, and a digest in the locked
 * bucket can be neither replaced nor deleted before its retention date.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KMSClient, SignCommand, VerifyCommand } from '@aws-sdk/client-kms';
import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createKmsClient, createKmsDigestSigner } from '#functions/adapters/kms/digest-signer.ts';
import { createS3DigestStore } from '#functions/adapters/s3/digest-store.ts';
import { createS3Client } from '#functions/adapters/s3/object-store.ts';
import { handleKms, localKmsKey } from '#infra/local/kms.ts';
import { objectStoreCredentials, startS3, type S3Service } from '#infra/local/s3.ts';
import { verifyAuditTrail } from '#shared/domain/audit/audit-trail.ts';
import { digestKey, writeDigest } from '#shared/domain/audit/digests.ts';
import { caller, fakeDirectory, ports } from '#tests/unit/domain/fakes.ts';

const BUCKET = 'imaging-local-audit-digests';

describe("the twin's KMS and Object Lock bucket", () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'iws-digests-'));
  const key = localKmsKey(dataDir, 'us-east-1', '000000000000');
  let server: Server;
  let s3: S3Service;
  let endpoint = '';
  beforeAll(async () => {
    const credentials = objectStoreCredentials(dataDir);
    vi.stubEnv('AWS_ACCESS_KEY_ID', credentials.accessKeyId);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', credentials.secretAccessKey);
    vi.stubEnv('AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED', 'true');
    s3 = await startS3(dataDir, [BUCKET], {
      credentials,
      origins: ['http://127.0.0.1'],
      objectLock: { [BUCKET]: { retentionDays: 1 } },
    });
    server = createServer((req, res) => {
      const url = req.url ?? '/';
      if (url.startsWith('/_aws/kms')) return void handleKms(req, res, [key]);
      s3.handle(req, res, url.replace(/^\/_aws\/s3/, '') || '/');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.close();
    await s3.close();
    vi.unstubAllEnvs();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const adapters = () => ({
    store: createS3DigestStore(createS3Client('us-east-1', `${endpoint}/_aws/s3`), () => BUCKET),
    signer: createKmsDigestSigner(createKmsClient('us-east-1', `${endpoint}/_aws/kms`), () => key.arn),
  });

  it('keeps the same key across starts of the data folder', () => {
    // Act
    const again = localKmsKey(dataDir, 'us-east-1', '000000000000');

    // Assert
    expect(again).toEqual(key);
    expect(key.arn).toMatch(/^arn:aws:kms:us-east-1:000000000000:key\/[0-9a-f-]{36}$/);
  });

  it('signs and verifies as KMS does, and refuses a signature of other bytes', async () => {
    // Arrange
    const kms = new KMSClient({ region: 'us-east-1', endpoint: `${endpoint}/_aws/kms` });
    const message = new TextEncoder().encode('digest bytes');

    // Act
    const signed = await kms.send(
      new SignCommand({ KeyId: key.arn, Message: message, MessageType: 'RAW', SigningAlgorithm: 'ECDSA_SHA_256' }),
    );
    const valid = await kms.send(
      new VerifyCommand({
        KeyId: key.arn,
        Message: message,
        Signature: signed.Signature!,
        SigningAlgorithm: 'ECDSA_SHA_256',
      }),
    );
    const forged = kms.send(
      new VerifyCommand({
        KeyId: key.arn,
        Message: new TextEncoder().encode('other bytes'),
        Signature: signed.Signature!,
        SigningAlgorithm: 'ECDSA_SHA_256',
      }),
    );

    // Assert
    expect(valid.SignatureValid).toBe(true);
    await expect(forged).rejects.toMatchObject({ name: 'KMSInvalidSignatureException' });
  });

  it('writes digests through the production adapters and verifies the chain from them', async () => {
    // Arrange
    const p = ports();
    const deps = { ...p, directory: fakeDirectory(), digests: adapters() };
    for (let n = 1; n <= 3; n++)
      await p.audit.record({
        hospitalId: 'h1',
        action: 'DATASET_VIEWED',
        actorUserId: 'u1',
        actorName: 'Pat Lead',
        details: { n },
      });

    // Act
    const written = await writeDigest('h1', deps);
    const again = await deps.digests.store.put({ key: digestKey('h1', 3), body: '{}', signature: 'forged' });
    const result = await verifyAuditTrail({}, caller('HOSPITAL_ADMIN'), deps);

    // Assert
    expect(written.outcome).toBe('written');
    expect(again).toBe('exists');
    expect(result).toMatchObject({ verified: true, digests: { verified: true, checked: 1, lastDigestSeq: 3 } });
  });

  it('refuses to replace or delete a locked digest before its retention date', async () => {
    // Arrange
    const client = createS3Client('us-east-1', `${endpoint}/_aws/s3`);
    const Key = digestKey('h2', 1);
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: '{"v":1}', IfNoneMatch: '*' }));

    // Act
    const status = (attempt: Promise<unknown>) =>
      attempt.then(
        () => 200,
        (error: { $metadata?: { httpStatusCode?: number } }) => error.$metadata?.httpStatusCode,
      );
    const overwrite = await status(client.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: '{"v":2}' })));
    const remove = await status(client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key })));

    // Assert
    expect([overwrite, remove]).toEqual([403, 403]);
    const listed = await adapters().store.list('h2', 10);
    expect(listed.items.map((d) => d.body)).toEqual(['{"v":1}']);
  });
});
