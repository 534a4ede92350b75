import { describe, expect, it } from 'vitest';
import {
  chainBatch,
  drainPending,
  MAX_CHAIN_BATCH,
  type ChainStore,
  type PendingAuditEvent,
} from '#shared/domain/audit/batch-chain.ts';
import { EMPTY_HEAD, verifyChain, type ChainedAuditEvent, type ChainHead } from '#shared/domain/audit/chain.ts';
import { checkpointOf, verifyAuditTrail } from '#shared/domain/audit/audit-trail.ts';
import { createMemoryAuditLog } from '#functions/adapters/memory/audit-log.ts';
import { caller, fakeDirectory } from '#tests/unit/domain/fakes.ts';

/** A pending event as a request writes it: id and time fixed, the key sorted by time then id. */
const pendingEvent = (n: number): PendingAuditEvent => {
  const at = new Date(Date.UTC(2026, 10, 25, 10, 0, 0, n)).toISOString();
  const id = `e${String(n).padStart(4, '0')}`;
  return {
    hospitalId: 'h1',
    action: 'DATASET_VIEWED',
    actorUserId: `u${n % 7}`,
    actorName: 'Pat Lead',
    datasetId: `d${n % 3}`,
    details: { n },
    id,
    at,
    pendingKey: `${at}#${id}`,
  };
};

type Crash = 'beforeCommit' | 'afterCommit';

/**
 * The table as the chainer sees it, in memory: the transaction of `commit` is all or nothing and holds only while
 * the head and every pending item are as the batch expects. `crashOnce` stops the chainer at one step once.
 */
function memoryChainStore() {
  const pending = new Map<string, PendingAuditEvent>();
  const chain: ChainedAuditEvent[] = [];
  let head: ChainHead = EMPTY_HEAD;
  let crash: Crash | undefined;
  const commits: number[] = [];
  const store: ChainStore = {
    async head() {
      return head;
    },
    async pending(_hospitalId, limit) {
      return [...pending.values()].sort((a, b) => (a.pendingKey < b.pendingKey ? -1 : 1)).slice(0, limit);
    },
    async commit(_hospitalId, previous, events, taken) {
      if (crash === 'beforeCommit') {
        crash = undefined;
        throw new Error('crashed before the transaction');
      }
      if (previous.hash !== head.hash || taken.some((p) => !pending.has(p.pendingKey))) return 'raced';
      chain.push(...events);
      for (const p of taken) pending.delete(p.pendingKey);
      head = { seq: events.at(-1)!.seq, hash: events.at(-1)!.hash };
      commits.push(events.length);
      if (crash === 'afterCommit') {
        crash = undefined;
        throw new Error('crashed after the transaction');
      }
      return 'committed';
    },
  };
  return {
    store,
    chain,
    commits,
    add: (...events: PendingAuditEvent[]) => events.forEach((e) => pending.set(e.pendingKey, e)),
    pendingCount: () => pending.size,
    head: () => head,
    crashOnce: (step: Crash) => void (crash = step),
  };
}

async function* onePage(events: ChainedAuditEvent[]) {
  yield events;
}

const noWait = async () => undefined;

/** The entry a request records (what becomes pending), without the id and key the writer gives it. */
const entryOf = (n: number) => {
  const { id: _id, pendingKey: _key, ...entry } = pendingEvent(n);
  return entry;
};

describe('the batch chainer', () => {
  it('chains pending events in the order of their keys, keeping the ids and times their requests gave them', async () => {
    // Arrange: written out of order.
    const table = memoryChainStore();
    table.add(pendingEvent(3), pendingEvent(1), pendingEvent(2));

    // Act
    const result = await drainPending(table.store, 'h1');

    // Assert
    expect(result).toEqual({ chained: 3, batches: 1, races: 0 });
    expect(table.chain.map((e) => [e.seq, e.id, e.at])).toEqual([
      [1, 'e0001', pendingEvent(1).at],
      [2, 'e0002', pendingEvent(2).at],
      [3, 'e0003', pendingEvent(3).at],
    ]);
    expect(await verifyChain(onePage(table.chain), table.head())).toEqual({ verified: true, checkedEvents: 3 });
    expect(table.pendingCount()).toBe(0);
  });

  it('moves the head once per batch of at most MAX_CHAIN_BATCH events, and links the batches', async () => {
    // Arrange
    const table = memoryChainStore();
    table.add(...Array.from({ length: 120 }, (_, i) => pendingEvent(i + 1)));

    // Act
    const result = await drainPending(table.store, 'h1');

    // Assert
    expect(MAX_CHAIN_BATCH * 2 + 1).toBeLessThanOrEqual(100);
    expect(table.commits).toEqual([49, 49, 22]);
    expect(result).toMatchObject({ chained: 120, batches: 3 });
    expect(table.chain.map((e) => e.id)).toEqual(Array.from({ length: 120 }, (_, i) => pendingEvent(i + 1).id));
    expect(await verifyChain(onePage(table.chain), table.head())).toEqual({ verified: true, checkedEvents: 120 });
  });

  it('leaves the batch pending when it crashes before the transaction, and chains it once on retry', async () => {
    // Arrange
    const table = memoryChainStore();
    table.add(pendingEvent(1), pendingEvent(2));
    table.crashOnce('beforeCommit');

    // Act
    const crashed = await drainPending(table.store, 'h1').catch((e: unknown) => e);
    const pendingAfterCrash = table.pendingCount();
    const retried = await drainPending(table.store, 'h1');

    // Assert
    expect(crashed).toBeInstanceOf(Error);
    expect(pendingAfterCrash).toBe(2);
    expect(retried.chained).toBe(2);
    expect(table.chain.map((e) => e.seq)).toEqual([1, 2]);
  });

  it('chains nothing twice when it crashes after the transaction and the retry runs', async () => {
    // Arrange
    const table = memoryChainStore();
    table.add(pendingEvent(1), pendingEvent(2));
    table.crashOnce('afterCommit');

    // Act
    await drainPending(table.store, 'h1').catch(() => undefined);
    table.add(pendingEvent(3));
    const retried = await drainPending(table.store, 'h1');

    // Assert
    expect(retried.chained).toBe(1);
    expect(table.chain.map((e) => e.id)).toEqual(['e0001', 'e0002', 'e0003']);
    expect(await verifyChain(onePage(table.chain), table.head())).toEqual({ verified: true, checkedEvents: 3 });
  });

  it('lets two chainers drain one hospital at once: every event chained exactly once, the chain intact', async () => {
    // Arrange
    const table = memoryChainStore();
    table.add(...Array.from({ length: 150 }, (_, i) => pendingEvent(i + 1)));

    // Act
    const [a, b] = await Promise.all([
      drainPending(table.store, 'h1', { batchSize: 10, backOff: noWait }),
      drainPending(table.store, 'h1', { batchSize: 10, backOff: noWait }),
    ]);

    // Assert
    expect(a.chained + b.chained).toBe(150);
    expect(new Set(table.chain.map((e) => e.id)).size).toBe(150);
    expect(await verifyChain(onePage(table.chain), table.head())).toEqual({ verified: true, checkedEvents: 150 });
  });

  it('links a batch to the head it is given', async () => {
    // Arrange
    const head = { seq: 7, hash: 'c'.repeat(64) };

    // Act
    const events = await chainBatch(head, [pendingEvent(1), pendingEvent(2)]);

    // Assert
    expect(events.map((e) => [e.seq, e.prevHash])).toEqual([
      [8, head.hash],
      [9, events[0]!.hash],
    ]);
  });
});

describe('incremental verification', () => {
  it('walks only the events after the last checkpoint and counts every intact position', async () => {
    // Arrange
    const audit = createMemoryAuditLog();
    const deps = { audit, directory: fakeDirectory(), clock: { now: () => '2026-11-25T12:00:00.000Z' } };
    const admin = caller('HOSPITAL_ADMIN', { hospitalId: 'h1' });
    for (let n = 1; n <= 5; n++) await audit.record(entryOf(n));
    const walked: (number | undefined)[] = [];
    const chainPage = audit.chainPage.bind(audit);
    audit.chainPage = (hospitalId, startKey, afterSeq) => {
      walked.push(afterSeq);
      return chainPage(hospitalId, startKey, afterSeq);
    };

    // Act: the first walk starts at the first event; the second after the first's checkpoint (its own event is 6).
    const first = await verifyAuditTrail({}, admin, deps);
    for (let n = 6; n <= 8; n++) await audit.record(entryOf(n));
    const second = await verifyAuditTrail({}, admin, deps);

    // Assert
    expect(first).toMatchObject({ verified: true, checkedEvents: 5 });
    expect(second).toMatchObject({ verified: true, checkedEvents: 9 });
    expect(walked).toEqual([undefined, 5]);
    expect(checkpointOf(await audit.head('h1'))).toEqual({ seq: 9, hash: audit.events[8]!.hash });
  });

  it('walks from the first event again once a verification found the chain broken', async () => {
    // Arrange
    const audit = createMemoryAuditLog();
    const deps = { audit, directory: fakeDirectory(), clock: { now: () => '2026-11-25T12:00:00.000Z' } };
    const admin = caller('HOSPITAL_ADMIN', { hospitalId: 'h1' });
    for (let n = 1; n <= 3; n++) await audit.record(entryOf(n));
    await verifyAuditTrail({}, admin, deps);
    for (let n = 4; n <= 5; n++) await audit.record(entryOf(n));
    audit.events[4] = { ...audit.events[4]!, details: { altered: true } };

    // Act
    const broken = await verifyAuditTrail({}, admin, deps);

    // Assert
    expect(broken).toMatchObject({ verified: false, brokenAt: { seq: 5, reason: 'HASH_MISMATCH' } });
    expect(checkpointOf(await audit.head('h1'))).toEqual(EMPTY_HEAD);
  });
});
