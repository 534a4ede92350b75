/**
 * The audit digests' cloud calls (docs/domain.md#signed-digests), checked against the SDK's own clients with
 * aws-sdk-client-mock: a digest is put once (If-None-Match, a SHA-256 checksum for Object Lock, the signature in the
 * object's metadata), listed newest first, signed by KMS (ECDSA_SHA_256 over the raw bytes) and verified here with the
 * public key GetPublicKey returns.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import {
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createKmsDigestSigner } from '#functions/adapters/kms/digest-signer.ts';
import { createS3DigestStore } from '#functions/adapters/s3/digest-store.ts';
import { digestKey } from '#shared/domain/audit/digests.ts';

const s3 = mockClient(S3Client);
const kms = mockClient(KMSClient);
afterEach(() => {
  s3.reset();
  kms.reset();
});

const BUCKET = 'imaging-dev-audit-digests-123456789012-eu-west-1';
const KEY_ARN = 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';

describe('the S3 digest store', () => {
  const store = () => createS3DigestStore(new S3Client({ region: 'eu-west-1' }), () => BUCKET);

  it('puts a digest only if its key is free, with its checksum and its signature in the metadata', async () => {
    // Arrange
    s3.on(PutObjectCommand).resolves({});

    // Act
    const outcome = await store().put({ key: digestKey('h1', 3), body: '{"v":1}', signature: 'c2ln' });

    // Assert
    expect(outcome).toBe('written');
    expect(s3.commandCalls(PutObjectCommand)[0]!.args[0].input).toMatchObject({
      Bucket: BUCKET,
      Key: digestKey('h1', 3),
      Body: '{"v":1}',
      IfNoneMatch: '*',
      ChecksumAlgorithm: 'SHA256',
      Metadata: { signature: 'c2ln' },
    });
  });

  it('answers exists when S3 refuses the conditional put (412), and passes any other failure on', async () => {
    // Arrange
    const refusal = (name: string, status: number) =>
      new S3ServiceException({ name, $fault: 'client', $metadata: { httpStatusCode: status }, message: name });
    s3.on(PutObjectCommand).rejectsOnce(refusal('PreconditionFailed', 412)).rejectsOnce(refusal('AccessDenied', 403));

    // Act
    const first = await store().put({ key: digestKey('h1', 3), body: '{}', signature: 'x' });
    const second = store().put({ key: digestKey('h1', 3), body: '{}', signature: 'x' });

    // Assert
    expect(first).toBe('exists');
    await expect(second).rejects.toMatchObject({ name: 'AccessDenied' });
  });

  it("lists the hospital's digests under its prefix, newest first, with each body and signature", async () => {
    // Arrange
    s3.on(ListObjectsV2Command).resolves({
      Contents: [{ Key: digestKey('h1', 9) }, { Key: digestKey('h1', 4) }],
      IsTruncated: true,
    });
    s3.on(GetObjectCommand).callsFake((input: { Key: string }) => ({
      // The part of a response stream the adapter reads.
      Body: { transformToString: async () => `{"key":"${input.Key}"}` },
      Metadata: { signature: `sig-${input.Key}` },
    }));

    // Act
    const page = await store().list('h1', 2);

    // Assert
    expect(s3.commandCalls(ListObjectsV2Command)[0]!.args[0].input).toEqual({
      Bucket: BUCKET,
      Prefix: 'h1/',
      MaxKeys: 2,
    });
    expect(page.items.map((d) => d.key)).toEqual([digestKey('h1', 9), digestKey('h1', 4)]);
    expect(page.items[0]).toMatchObject({
      body: `{"key":"${digestKey('h1', 9)}"}`,
      signature: `sig-${digestKey('h1', 9)}`,
    });
    expect(page.next).toBe(digestKey('h1', 4));
  });
});

describe('the KMS digest signer', () => {
  const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const signer = () => createKmsDigestSigner(new KMSClient({ region: 'eu-west-1' }), () => KEY_ARN);
  const message = new TextEncoder().encode('{"v":1,"toSeq":3}');

  it('signs the raw bytes with ECDSA_SHA_256 on the digest key', async () => {
    // Arrange
    kms.on(SignCommand).resolves({ Signature: new Uint8Array([1, 2, 3]), KeyId: KEY_ARN });

    // Act
    const signature = await signer().sign(message);

    // Assert
    expect(signature).toBe(Buffer.from([1, 2, 3]).toString('base64'));
    expect(kms.commandCalls(SignCommand)[0]!.args[0].input).toMatchObject({
      KeyId: KEY_ARN,
      MessageType: 'RAW',
      SigningAlgorithm: 'ECDSA_SHA_256',
      Message: message,
    });
  });

  it('verifies with the public key GetPublicKey returns, fetched once', async () => {
    // Arrange
    kms.on(GetPublicKeyCommand).resolves({
      KeyId: KEY_ARN,
      PublicKey: new Uint8Array(pair.publicKey.export({ type: 'spki', format: 'der' })),
    });
    const good = sign('sha256', message, pair.privateKey).toString('base64');
    const other = sign('sha256', new TextEncoder().encode('another digest'), pair.privateKey).toString('base64');
    const s = signer();

    // Act
    const valid = await s.verify(message, good);
    const invalid = await s.verify(message, other);

    // Assert
    expect([valid, invalid]).toEqual([true, false]);
    expect(kms.commandCalls(GetPublicKeyCommand)).toHaveLength(1);
    expect(kms.commandCalls(SignCommand)).toHaveLength(0);
  });
});
