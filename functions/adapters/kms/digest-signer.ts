import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { DIGEST_SIGNING_ALGORITHM, type DigestSigner } from '#shared/domain/audit/digests.ts';
import { prepareClient } from '#functions/adapters/aws-clients.ts';

export function createKmsClient(region: string, endpoint?: string): KMSClient {
  return prepareClient(new KMSClient({ region, ...(endpoint ? { endpoint } : {}) }));
}

/**
 * The audit digests' signing key (docs/domain.md#signed-digests): an asymmetric KMS key (ECC_NIST_P256, SIGN_VERIFY).
 * Sign hands KMS the digest's bytes (MessageType RAW: KMS takes their SHA-256) and gets a DER-encoded ECDSA
 * signature; verification fetches the public key once (GetPublicKey, DER SubjectPublicKeyInfo) and checks signatures
 * here, as anyone holding the public key can, without the private half. `keyId` is read on first use, so a function
 * without the grant fails then, naming the variable.
 */
export function createKmsDigestSigner(kms: KMSClient, keyId: () => string): DigestSigner {
  let publicKey: Promise<KeyObject> | undefined;
  const fetchPublicKey = async (): Promise<KeyObject> => {
    const answer = await kms.send(new GetPublicKeyCommand({ KeyId: keyId() }));
    if (!answer.PublicKey) throw new Error('KMS answered GetPublicKey without a key');
    return createPublicKey({ key: Buffer.from(answer.PublicKey), format: 'der', type: 'spki' });
  };
  return {
    async keyId() {
      return keyId();
    },
    async sign(message) {
      const answer = await kms.send(
        new SignCommand({
          KeyId: keyId(),
          Message: message,
          MessageType: 'RAW',
          SigningAlgorithm: DIGEST_SIGNING_ALGORITHM,
        }),
      );
      if (!answer.Signature) throw new Error('KMS answered Sign without a signature');
      return Buffer.from(answer.Signature).toString('base64');
    },
    async verify(message, signature) {
      publicKey ??= fetchPublicKey().catch((error: unknown) => {
        publicKey = undefined;
        throw error;
      });
      return verify('sha256', message, await publicKey, Buffer.from(signature, 'base64'));
    },
  };
}
