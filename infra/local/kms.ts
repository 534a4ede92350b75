import { createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, sign, verify } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { persistedSecret } from './data-dir.ts';

/**
 * The twin's KMS: the asymmetric key that signs the audit digests (docs/domain.md#signed-digests), reached through
 * @aws-sdk/client-kms as in the cloud, pointed here by KMS_ENDPOINT. It speaks the KMS JSON protocol (JSON 1.1,
 * `X-Amz-Target: TrentService.<Operation>`, binary fields in base64; AWS KMS API reference) for the three operations
 * the product uses: Sign, Verify and GetPublicKey, with ECC_NIST_P256 keys and ECDSA_SHA_256 (DER-encoded signatures,
 * MessageType RAW, the one the product sends). Its key pairs are made once and kept under the data folder (mode 600), so digests
 * signed by an earlier start still verify.
 */
export type LocalKmsKey = { arn: string; privateKeyPem: string };

const ALGORITHM = 'ECDSA_SHA_256';

/** The data folder's digest key, made on first start: its ARN and private key (PKCS#8 PEM). */
export function localKmsKey(dataDir: string, region: string, account: string): LocalKmsKey {
  const { value } = persistedSecret(dataDir, 'kms-audit-digest-key.json', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    return JSON.stringify({
      arn: `arn:aws:kms:${region}:${account}:key/${randomUUID()}`,
      privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    });
  });
  return JSON.parse(value) as LocalKmsKey;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

type Request = {
  KeyId?: unknown;
  Message?: unknown;
  MessageType?: unknown;
  Signature?: unknown;
  SigningAlgorithm?: unknown;
};

export async function handleKms(
  req: IncomingMessage,
  res: ServerResponse,
  keys: readonly LocalKmsKey[],
): Promise<void> {
  const body = await readBody(req);
  const answer = (status: number, payload: unknown) => {
    res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
    res.end(JSON.stringify(payload));
  };
  const refuse = (type: string, message: string) => answer(400, { __type: type, message });
  const target = String(req.headers['x-amz-target'] ?? '');
  const operation = target.startsWith('TrentService.') ? target.slice('TrentService.'.length) : '';
  if (req.method !== 'POST' || !['Sign', 'Verify', 'GetPublicKey'].includes(operation))
    return refuse('UnsupportedOperationException', 'The twin answers Sign, Verify and GetPublicKey only');
  let request: Request;
  try {
    request = JSON.parse(body || '{}') as Request;
  } catch {
    return refuse('SerializationException', 'The request body is not JSON');
  }
  const key = keys.find((k) => k.arn === request.KeyId || k.arn.endsWith(`:key/${String(request.KeyId)}`));
  if (!key) return refuse('NotFoundException', `Key '${String(request.KeyId)}' does not exist`);
  const privateKey = createPrivateKey(key.privateKeyPem);
  const publicKey = createPublicKey(privateKey);
  if (operation === 'GetPublicKey') {
    return answer(200, {
      KeyId: key.arn,
      PublicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
      KeySpec: 'ECC_NIST_P256',
      KeyUsage: 'SIGN_VERIFY',
      SigningAlgorithms: [ALGORITHM],
    });
  }
  if (request.SigningAlgorithm !== ALGORITHM)
    return refuse('InvalidKeyUsageException', `The key supports ${ALGORITHM} only`);
  if (typeof request.Message !== 'string') return refuse('ValidationException', 'Message is required');
  if ((request.MessageType ?? 'RAW') !== 'RAW')
    return refuse('ValidationException', 'The twin signs RAW messages only');
  const data = Buffer.from(request.Message, 'base64');
  if (data.length > 4096) return refuse('ValidationException', 'Message must be at most 4096 bytes');
  if (operation === 'Sign') {
    const signature = sign('sha256', data, privateKey);
    return answer(200, { KeyId: key.arn, Signature: signature.toString('base64'), SigningAlgorithm: ALGORITHM });
  }
  if (typeof request.Signature !== 'string') return refuse('ValidationException', 'Signature is required');
  if (!verify('sha256', data, publicKey, Buffer.from(request.Signature, 'base64')))
    return refuse('KMSInvalidSignatureException', 'The signature is not valid');
  return answer(200, { KeyId: key.arn, SignatureValid: true, SigningAlgorithm: ALGORITHM });
}
