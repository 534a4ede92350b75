import type { AuditLog, Clock } from '#shared/domain/ports.ts';
import { canonicalJson, GENESIS_HASH, type ChainHead } from './chain.ts';

/**
 * Signed digests of the audit chain (docs/domain.md#signed-digests), after CloudTrail's log file integrity validation:
 * every hour, for each hospital whose chain moved, a digest names the positions it covers, the chain's head hash at
 * its last position and the previous digest's hash and signature, and is signed with an asymmetric key whose private
 * half never leaves the key service. Digests are written once into a bucket whose objects cannot be overwritten or
 * deleted before their retention date, so an event covered by a digest cannot be changed, even with every hash after
 * it recomputed, without the signed head hash giving it away.
 */

/** Version of the digest's serialisation, part of what is signed. */
export const DIGEST_VERSION = 1;
/** The signing algorithm (AWS KMS SigningAlgorithmSpec): ECDSA over P-256 with SHA-256, DER-encoded signatures. */
export const DIGEST_SIGNING_ALGORITHM = 'ECDSA_SHA_256';

export type AuditDigest = {
  v: typeof DIGEST_VERSION;
  hospitalId: string;
  /** First and last chain positions the digest covers (the previous digest's last + 1 .. the head at that time). */
  fromSeq: number;
  toSeq: number;
  /** Hash of the event at `toSeq`: the chain's head when the digest was made. */
  headHash: string;
  /** SHA-256 (hex) of the previous digest's bytes and its signature (base64); null for the hospital's first digest. */
  previousDigestHash: string | null;
  previousDigestSignature: string | null;
  /** When it was made, and the key that signed it. */
  at: string;
  keyId: string;
  algorithm: typeof DIGEST_SIGNING_ALGORITHM;
};

/** A digest as stored: the exact bytes that were signed (canonical JSON) and the signature over them (base64). */
export type StoredDigest = { key: string; body: string; signature: string };

/** The signing key (an asymmetric KMS key): signs with the private half, verifies with the public one. */
export type DigestSigner = {
  /** The key's id (its ARN in the cloud), written into each digest. */
  keyId(): Promise<string>;
  sign(message: Uint8Array): Promise<string>;
  /** Checks a signature with the key's public half (GetPublicKey), never the private one. */
  verify(message: Uint8Array, signature: string): Promise<boolean>;
};

/** The digest bucket: write-once objects, listed newest first per hospital. */
export type DigestStore = {
  /** Writes a new digest; 'exists' when its key is already taken (a locked object is never replaced). */
  put(digest: StoredDigest): Promise<'written' | 'exists'>;
  /** The hospital's digests, newest first, a page at a time (at most `limit`). */
  list(hospitalId: string, limit: number, startAfter?: string): Promise<{ items: StoredDigest[]; next?: string }>;
};

export type DigestDeps = { audit: AuditLog; clock: Clock; digests: { store: DigestStore; signer: DigestSigner } };

/** Positions are written with 12 digits, inverted, so a listing starts with the newest digest. */
const SEQ_DIGITS = 12;
const SEQ_MAX = 10 ** SEQ_DIGITS - 1;

/** `<hospitalId>/<inverted toSeq>.json`: S3 lists keys in ascending order, so the newest digest comes first. */
export function digestKey(hospitalId: string, toSeq: number): string {
  return `${hospitalId}/${String(SEQ_MAX - toSeq).padStart(SEQ_DIGITS, '0')}.json`;
}

export function digestPrefix(hospitalId: string): string {
  return `${hospitalId}/`;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Parses a stored digest's body; undefined when it is not a digest of this version. */
export function parseDigest(body: string): AuditDigest | undefined {
  try {
    const value = JSON.parse(body) as Partial<AuditDigest>;
    if (value.v !== DIGEST_VERSION || typeof value.toSeq !== 'number' || typeof value.fromSeq !== 'number')
      return undefined;
    return value as AuditDigest;
  } catch {
    return undefined;
  }
}

/** The newest digest of the hospital, or undefined when it has none. */
export async function latestDigest(store: DigestStore, hospitalId: string): Promise<StoredDigest | undefined> {
  return (await store.list(hospitalId, 1)).items[0];
}

export type DigestWriteResult = {
  hospitalId: string;
  digest?: AuditDigest;
  outcome: 'written' | 'unchanged' | 'exists';
};

/**
 * Writes the hospital's next digest when its chain moved since the last one: from the last digest's position + 1 to
 * the head, linked to the last digest by its hash and signature. Idempotent: a digest's key is its last position, so a
 * run repeated for the same head finds the key taken and writes nothing.
 */
export async function writeDigest(hospitalId: string, deps: DigestDeps): Promise<DigestWriteResult> {
  const { store, signer } = deps.digests;
  // What is chained: events still pending go into the next hour's digest.
  const head = await deps.audit.head(hospitalId);
  const previous = await latestDigest(store, hospitalId);
  const last = previous ? parseDigest(previous.body) : undefined;
  if (!head || head.seq === 0 || (last && last.toSeq >= head.seq)) return { hospitalId, outcome: 'unchanged' };
  const digest: AuditDigest = {
    v: DIGEST_VERSION,
    hospitalId,
    fromSeq: (last?.toSeq ?? 0) + 1,
    toSeq: head.seq,
    headHash: head.hash,
    previousDigestHash: previous ? await sha256Hex(previous.body) : null,
    previousDigestSignature: previous?.signature ?? null,
    at: deps.clock.now(),
    keyId: await signer.keyId(),
    algorithm: DIGEST_SIGNING_ALGORITHM,
  };
  const body = canonicalJson(digest);
  const signature = await signer.sign(new TextEncoder().encode(body));
  const outcome = await store.put({ key: digestKey(hospitalId, head.seq), body, signature });
  return { hospitalId, digest, outcome };
}

/** Every hospital's digest, one after the other; a hospital that fails does not stop the others. */
export async function writeDigests(
  hospitalIds: readonly string[],
  deps: DigestDeps,
): Promise<{ written: number; unchanged: number; failed: string[] }> {
  const report = { written: 0, unchanged: 0, failed: [] as string[] };
  for (const hospitalId of hospitalIds) {
    try {
      const result = await writeDigest(hospitalId, deps);
      if (result.outcome === 'written') report.written++;
      else report.unchanged++;
    } catch {
      report.failed.push(hospitalId);
    }
  }
  return report;
}

export type DigestBreakReason =
  /** The signature does not verify with the key's public half: the digest was forged or altered. */
  | 'SIGNATURE_INVALID'
  /** The digest does not name the previous one's hash and signature, or leaves a gap: a digest was removed. */
  | 'DIGEST_LINK_BROKEN'
  /** The event at the digest's last position no longer has the hash it signed: an event it covers was changed. */
  | 'HEAD_HASH_MISMATCH'
  /** The digest covers positions the chain no longer holds: events were removed from its end. */
  | 'DIGEST_AHEAD_OF_CHAIN'
  /** The object is not a digest. */
  | 'DIGEST_UNREADABLE';

export type DigestBreak = { toSeq: number; key: string; reason: DigestBreakReason };

export type DigestCheck = {
  verified: boolean;
  /** Digests whose signature and link were checked. */
  checked: number;
  /** The newest digest's last position (0: none). */
  lastDigestSeq: number;
  brokenAt?: DigestBreak;
  /** Digests found intact, newest first, with the positions they vouch for (for the walk of the chain). */
  anchors: { toSeq: number; headHash: string; key: string }[];
};

/**
 * Checks the hospital's digests, newest first: each signature with the public key, each link to the digest before it
 * (its hash and signature, and no gap in positions), and that none covers more than the chain's head. Stops after the
 * first digest at or below `downTo` (the verification's checkpoint) unless `downTo` is 0, which checks them all down to
 * the first digest, which must start at position 1 with no predecessor.
 */
export async function checkDigests(
  hospitalId: string,
  head: ChainHead,
  downTo: number,
  deps: Pick<DigestDeps, 'digests'>,
): Promise<DigestCheck> {
  const { store, signer } = deps.digests;
  const anchors: DigestCheck['anchors'] = [];
  let checked = 0;
  let lastDigestSeq = 0;
  let newer: { digest: AuditDigest; key: string } | undefined;
  let startAfter: string | undefined;
  const broken = (toSeq: number, key: string, reason: DigestBreakReason): DigestCheck => ({
    verified: false,
    checked,
    lastDigestSeq,
    brokenAt: { toSeq, key, reason },
    anchors,
  });
  for (;;) {
    const page = await store.list(hospitalId, 100, startAfter);
    for (const stored of page.items) {
      const digest = parseDigest(stored.body);
      if (!digest || digest.hospitalId !== hospitalId)
        return broken(newer?.digest.fromSeq ?? 0, stored.key, 'DIGEST_UNREADABLE');
      if (!(await signer.verify(new TextEncoder().encode(stored.body), stored.signature)))
        return broken(digest.toSeq, stored.key, 'SIGNATURE_INVALID');
      if (!newer) {
        lastDigestSeq = digest.toSeq;
        if (digest.toSeq > head.seq) return broken(digest.toSeq, stored.key, 'DIGEST_AHEAD_OF_CHAIN');
      } else if (
        newer.digest.fromSeq !== digest.toSeq + 1 ||
        newer.digest.previousDigestHash !== (await sha256Hex(stored.body)) ||
        newer.digest.previousDigestSignature !== stored.signature
      ) {
        return broken(newer.digest.toSeq, newer.key, 'DIGEST_LINK_BROKEN');
      }
      checked++;
      anchors.push({ toSeq: digest.toSeq, headHash: digest.headHash, key: stored.key });
      newer = { digest, key: stored.key };
      if (downTo > 0 && digest.toSeq <= downTo) return { verified: true, checked, lastDigestSeq, anchors };
    }
    if (!page.next) break;
    startAfter = page.next;
  }
  // The oldest digest was reached: it must be the hospital's first.
  if (newer && (newer.digest.fromSeq !== 1 || newer.digest.previousDigestHash !== null))
    return broken(newer.digest.toSeq, newer.key, 'DIGEST_LINK_BROKEN');
  return { verified: true, checked, lastDigestSeq, anchors };
}

/** The genesis of a chain with no digest yet. */
export const NO_DIGEST: ChainHead = { seq: 0, hash: GENESIS_HASH };
