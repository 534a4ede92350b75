/**
 * Signed digests of the audit chain (docs/domain.md#signed-digests): written per hospital whose chain moved, linked
 * to the one before, signed with a P-256 key; verification checks them with the public half and finds an event
 * changed behind a digest, even with every hash after it recomputed, a digest taken away, and a forged one.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryDigestSigner, createMemoryDigestStore } from '#functions/adapters/memory/audit-digests.ts';
import { verifyAuditTrail } from '#shared/domain/audit/audit-trail.ts';
import { chainNext, EMPTY_HEAD, type ChainedAuditEvent } from '#shared/domain/audit/chain.ts';
import { digestKey, parseDigest, writeDigest, writeDigests } from '#shared/domain/audit/digests.ts';
import type { AuditEntry } from '#shared/domain/ports.ts';
import { caller, fakeDirectory, ports } from '#tests/unit/domain/fakes.ts';

const entry = (n: number, hospitalId = 'h1'): AuditEntry => ({
  hospitalId,
  action: 'DATASET_VIEWED',
  actorUserId: `u${n}`,
  actorName: 'Pat Lead',
  datasetId: `d${n}`,
  details: { n },
});

function setup() {
  const p = ports();
  const store = createMemoryDigestStore();
  const signer = createMemoryDigestSigner();
  const deps = { ...p, directory: fakeDirectory(), digests: { store, signer } };
  const record = async (from: number, to: number) => {
    for (let n = from; n <= to; n++) await p.audit.record(entry(n));
  };
  return { p, store, signer, deps, record };
}

/** Rewrites the hospital's chain from `seq` on, every hash recomputed, as someone with write access to the table could. */
async function rewriteFrom(events: ChainedAuditEvent[], hospitalId: string, seq: number, change: () => void) {
  change();
  const chain = events.filter((e) => e.hospitalId === hospitalId).sort((a, b) => a.seq - b.seq);
  let head = chain[seq - 2] ? { seq: seq - 1, hash: chain[seq - 2]!.hash } : EMPTY_HEAD;
  for (const event of chain.slice(seq - 1)) {
    const { hash: _, seq: __, prevHash: ___, id, at, ...rest } = event;
    const rechained = await chainNext(head, { ...rest, at }, id, at);
    Object.assign(event, rechained);
    head = { seq: rechained.seq, hash: rechained.hash };
  }
  return head;
}

describe('writing digests', () => {
  it("signs a digest of a chain that moved, linked to the previous digest's hash and signature", async () => {
    // Arrange
    const { p, store, signer, deps, record } = setup();
    await record(1, 3);

    // Act
    const first = await writeDigest('h1', deps);
    const unchanged = await writeDigest('h1', deps);
    await record(4, 5);
    const second = await writeDigest('h1', deps);

    // Assert
    expect(first).toMatchObject({ outcome: 'written', digest: { fromSeq: 1, toSeq: 3, previousDigestHash: null } });
    expect(unchanged.outcome).toBe('unchanged');
    expect(second.digest).toMatchObject({ fromSeq: 4, toSeq: 5, headHash: (await p.audit.head('h1'))!.hash });
    const stored = store.objects.get(digestKey('h1', 3))!;
    expect(second.digest!.previousDigestSignature).toBe(stored.signature);
    expect(await signer.verify(new TextEncoder().encode(stored.body), stored.signature)).toBe(true);
    expect(parseDigest(stored.body)).toMatchObject({ hospitalId: 'h1', algorithm: 'ECDSA_SHA_256' });
  });

  it('lists the newest digest first, and never replaces a digest already written', async () => {
    // Arrange
    const { store, deps, record } = setup();
    await record(1, 2);
    await writeDigest('h1', deps);
    await record(3, 3);
    await writeDigest('h1', deps);
    const kept = store.objects.get(digestKey('h1', 2))!;

    // Act
    const overwrite = await store.put({ key: digestKey('h1', 2), body: '{}', signature: 'forged' });
    const listed = await store.list('h1', 10);

    // Assert
    expect(overwrite).toBe('exists');
    expect(store.objects.get(digestKey('h1', 2))).toEqual(kept);
    expect(listed.items.map((d) => parseDigest(d.body)!.toSeq)).toEqual([3, 2]);
  });

  it('writes one digest per hospital that moved and counts the others unchanged', async () => {
    // Arrange
    const { p, deps, record } = setup();
    await record(1, 2);
    await p.audit.record(entry(1, 'h2'));
    await writeDigest('h2', deps);

    // Act
    const report = await writeDigests(['h1', 'h2', 'h3'], deps);

    // Assert
    expect(report).toEqual({ written: 1, unchanged: 2, failed: [] });
  });
});

describe('verification from the digests', () => {
  it('checks the digests and walks the chain from the newest one', async () => {
    // Arrange
    const { deps, record } = setup();
    await record(1, 4);
    await writeDigest('h1', deps);
    await record(5, 6);
    await writeDigest('h1', deps);
    await record(7, 8);

    // Act
    const result = await verifyAuditTrail({}, caller('HOSPITAL_ADMIN'), deps);

    // Assert
    expect(result).toMatchObject({
      verified: true,
      checkedEvents: 8,
      digests: { verified: true, checked: 2, lastDigestSeq: 6 },
    });
  });

  it('reports an event changed behind a digest, even with every later hash recomputed', async () => {
    // Arrange
    const { p, deps, record } = setup();
    await record(1, 5);
    await writeDigest('h1', deps);
    const head = await rewriteFrom(p.audit.events, 'h1', 2, () => {
      p.audit.events[1]!.details = { n: 'edited' };
    });
    p.audit.heads.set('h1', { ...head });

    // Act
    const incremental = await verifyAuditTrail({}, caller('HOSPITAL_ADMIN'), deps);
    const full = await verifyAuditTrail({ full: true }, caller('HOSPITAL_ADMIN'), deps);

    // Assert
    expect(incremental).toMatchObject({
      verified: false,
      digests: { brokenAt: { toSeq: 5, reason: 'HEAD_HASH_MISMATCH' } },
    });
    expect(full).toMatchObject({ verified: false, digests: { brokenAt: { toSeq: 5, reason: 'HEAD_HASH_MISMATCH' } } });
    expect((await p.audit.head('h1'))!.lastVerification).toMatchObject({ verified: false, brokenAtSeq: 5 });
  });

  it('reports an edited event that the chain itself gives away', async () => {
    // Arrange
    const { p, deps, record } = setup();
    await record(1, 5);
    await writeDigest('h1', deps);
    p.audit.events[2]!.details = { n: 'edited' };

    // Act
    const result = await verifyAuditTrail({ full: true }, caller('HOSPITAL_ADMIN'), deps);

    // Assert
    expect(result).toMatchObject({ verified: false, brokenAt: { seq: 3, reason: 'HASH_MISMATCH' } });
  });

  it('reports a digest taken away from the middle or the start of the digest chain', async () => {
    // Arrange
    const { store, deps, record } = setup();
    for (const to of [2, 4, 6]) {
      await record(to - 1, to);
      await writeDigest('h1', deps);
    }
    const middle = setup();
    for (const to of [2, 4, 6]) {
      await middle.record(to - 1, to);
      await writeDigest('h1', middle.deps);
    }
    store.objects.delete(digestKey('h1', 2));
    middle.store.objects.delete(digestKey('h1', 4));

    // Act
    const first = await verifyAuditTrail({ full: true }, caller('HOSPITAL_ADMIN'), deps);
    const between = await verifyAuditTrail({ full: true }, caller('HOSPITAL_ADMIN'), middle.deps);

    // Assert
    expect(first).toMatchObject({ verified: false, digests: { brokenAt: { toSeq: 4, reason: 'DIGEST_LINK_BROKEN' } } });
    expect(between).toMatchObject({
      verified: false,
      digests: { brokenAt: { toSeq: 6, reason: 'DIGEST_LINK_BROKEN' } },
    });
  });

  it('reports a digest whose signed bytes were altered, and one signed with another key', async () => {
    // Arrange
    const { store, deps, record } = setup();
    await record(1, 3);
    await writeDigest('h1', deps);
    const stored = store.objects.get(digestKey('h1', 3))!;
    store.objects.set(stored.key, { ...stored, body: stored.body.replace('"toSeq":3', '"toSeq":2') });
    const other = setup();
    await other.record(1, 3);
    await writeDigest('h1', { ...other.deps, digests: { ...other.deps.digests, signer: createMemoryDigestSigner() } });

    // Act
    const altered = await verifyAuditTrail({}, caller('HOSPITAL_ADMIN'), deps);
    const foreign = await verifyAuditTrail({}, caller('HOSPITAL_ADMIN'), other.deps);

    // Assert
    expect(altered).toMatchObject({ verified: false, digests: { brokenAt: { reason: 'SIGNATURE_INVALID' } } });
    expect(foreign).toMatchObject({
      verified: false,
      digests: { brokenAt: { toSeq: 3, reason: 'SIGNATURE_INVALID' } },
    });
  });

  it('reports events removed from the end of the chain that a digest covers', async () => {
    // Arrange
    const { p, deps, record } = setup();
    await record(1, 4);
    await writeDigest('h1', deps);
    p.audit.events.splice(2, 2);
    const last = p.audit.events.filter((e) => e.hospitalId === 'h1').at(-1)!;
    p.audit.heads.set('h1', { seq: last.seq, hash: last.hash });

    // Act
    const result = await verifyAuditTrail({}, caller('HOSPITAL_ADMIN'), deps);

    // Assert
    expect(result).toMatchObject({
      verified: false,
      digests: { brokenAt: { toSeq: 4, reason: 'DIGEST_AHEAD_OF_CHAIN' } },
    });
  });
});
