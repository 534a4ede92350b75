import type { AuditEntry, AuditEvent } from '#shared/domain/ports.ts';
import type { AuditOutcome } from '#shared/vocabulary/audit.ts';

/**
 * The per-hospital audit chain (docs/domain.md#audit-trail): every event carries its position `seq` (1, 2, ...), the
 * hash of the event before it (`prevHash`, GENESIS_HASH for the first) and its own `hash`, the SHA-256 of its
 * canonical serialisation. Removing, reordering or altering a stored event breaks a link that `verifyChain` finds.
 */
export const GENESIS_HASH = '0'.repeat(64);

/** Version of the canonical serialisation, part of what is hashed so a future change cannot be confused with this one. */
const CANONICAL_VERSION = 1;

/** The chain's head: the last appended event's position and hash (seq 0 and GENESIS_HASH for an empty chain). */
export type ChainHead = { seq: number; hash: string };
export const EMPTY_HEAD: ChainHead = { seq: 0, hash: GENESIS_HASH };

/** A chained event as stored: the event plus its position and both hashes. */
export type ChainedAuditEvent = AuditEvent & { seq: number; prevHash: string; hash: string };

/** JSON with object keys sorted at every level and undefined members left out: one byte string per value. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** What the hash covers: every field of the event except the hash itself. */
export function canonicalAuditEvent(event: Omit<ChainedAuditEvent, 'hash'>): string {
  return canonicalJson({
    v: CANONICAL_VERSION,
    seq: event.seq,
    prevHash: event.prevHash,
    id: event.id,
    hospitalId: event.hospitalId,
    at: event.at,
    action: event.action,
    outcome: event.outcome ?? 'SUCCESS',
    actorUserId: event.actorUserId,
    actorName: event.actorName,
    datasetId: event.datasetId,
    targetUserId: event.targetUserId,
    details: event.details,
  });
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export function hashAuditEvent(event: Omit<ChainedAuditEvent, 'hash'>): Promise<string> {
  return sha256Hex(canonicalAuditEvent(event));
}

/** The event that follows `head`: its id and time come from the writer, its position and link from the head. */
export async function chainNext(
  head: ChainHead,
  entry: AuditEntry,
  id: string,
  now: string,
): Promise<ChainedAuditEvent> {
  const outcome: AuditOutcome = entry.outcome ?? 'SUCCESS';
  const unhashed: Omit<ChainedAuditEvent, 'hash'> = {
    ...entry,
    id,
    at: entry.at ?? now,
    outcome,
    seq: head.seq + 1,
    prevHash: head.hash,
  };
  return { ...unhashed, hash: await hashAuditEvent(unhashed) };
}

export type ChainBreak = {
  /** Position at which the chain stops being trustworthy. */
  seq: number;
  eventId?: string;
  reason: 'HASH_MISMATCH' | 'LINK_MISMATCH' | 'MISSING_EVENT' | 'HEAD_MISMATCH';
};

export type ChainVerification = { verified: boolean; checkedEvents: number; brokenAt?: ChainBreak };

/**
 * Walks the chain in order (pages of events sorted by seq, from `start` on) and reports the first broken link: an event whose hash is
 * not the hash of its content (altered), whose prevHash is not its predecessor's hash (inserted or reordered), a gap
 * in the positions (removed), or a head that points past or beside the last stored event (tail removed).
 */
export async function verifyChain(
  pages: AsyncIterable<readonly ChainedAuditEvent[]>,
  head: ChainHead | undefined,
  /** A checkpoint an earlier verification left (its position and hash): the pages hold only what follows it. */
  start: ChainHead = EMPTY_HEAD,
): Promise<ChainVerification> {
  let previous: ChainHead = start;
  let checked = 0;
  for await (const page of pages) {
    for (const event of page) {
      if (event.seq !== previous.seq + 1) {
        return {
          verified: false,
          checkedEvents: checked,
          brokenAt: { seq: previous.seq + 1, reason: 'MISSING_EVENT' },
        };
      }
      const { hash, ...rest } = event;
      if ((await hashAuditEvent(rest)) !== hash) {
        return {
          verified: false,
          checkedEvents: checked,
          brokenAt: { seq: event.seq, eventId: event.id, reason: 'HASH_MISMATCH' },
        };
      }
      if (event.prevHash !== previous.hash) {
        return {
          verified: false,
          checkedEvents: checked,
          brokenAt: { seq: event.seq, eventId: event.id, reason: 'LINK_MISMATCH' },
        };
      }
      previous = { seq: event.seq, hash };
      checked++;
    }
  }
  const expected = head ?? EMPTY_HEAD;
  if (expected.seq !== previous.seq || expected.hash !== previous.hash) {
    return {
      verified: false,
      checkedEvents: checked,
      brokenAt: { seq: Math.min(expected.seq, previous.seq + 1), reason: 'HEAD_MISMATCH' },
    };
  }
  return { verified: true, checkedEvents: checked };
}
