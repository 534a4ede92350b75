import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { digestPrefix, type DigestSigner, type DigestStore, type StoredDigest } from '#shared/domain/audit/digests.ts';

/**
 * The digest bucket in memory, with the bucket's contract (docs/domain.md#signed-digests): a key once written is never
 * replaced ('exists', as S3 answers a conditional PutObject with 412), and a listing is in key order (newest digest
 * first). `objects` is exposed so tests can take a digest away as someone with the bucket's keys would try to.
 */
export type MemoryDigestStore = DigestStore & { objects: Map<string, StoredDigest> };

export function createMemoryDigestStore(): MemoryDigestStore {
  const objects = new Map<string, StoredDigest>();
  return {
    objects,
    async put(digest) {
      if (objects.has(digest.key)) return 'exists';
      objects.set(digest.key, { ...digest });
      return 'written';
    },
    async list(hospitalId, limit, startAfter) {
      const keys = [...objects.keys()]
        .filter((key) => key.startsWith(digestPrefix(hospitalId)) && (!startAfter || key > startAfter))
        .sort();
      const items = keys.slice(0, limit).map((key) => ({ ...objects.get(key)! }));
      return { items, ...(keys.length > limit ? { next: items.at(-1)!.key } : {}) };
    },
  };
}

/**
 * A P-256 key pair held in the process, signing as KMS signs with ECDSA_SHA_256 (SHA-256 of the message, DER-encoded
 * signature) and verifying with the public half only.
 */
export function createMemoryDigestSigner(
  keyId = 'memory-audit-digest-key',
  pair?: { privateKeyPem: string },
): DigestSigner & { publicKeyPem: string } {
  const privateKey: KeyObject = pair
    ? createPrivateKey(pair.privateKeyPem)
    : generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const publicKey = createPublicKey(privateKey);
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    async keyId() {
      return keyId;
    },
    async sign(message) {
      return sign('sha256', message, privateKey).toString('base64');
    },
    async verify(message, signature) {
      return verify('sha256', message, publicKey, Buffer.from(signature, 'base64'));
    },
  };
}
