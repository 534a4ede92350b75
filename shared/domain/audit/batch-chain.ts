import type { AuditEntry } from '#shared/domain/ports.ts';
import { TransientError } from '#shared/domain/errors.ts';
import { chainNext, type ChainedAuditEvent, type ChainHead } from './chain.ts';

/**
 * The audit chain built behind the requests (docs/domain.md#how-an-event-travels): a request makes its event durable
 * with one write, a pending event with its id and time already fixed, and answers. The chainer then takes a
 * hospital's pending events in order (time, then id), links them to the head, and in one transaction puts the chained
 * events, removes the pending ones and moves the head. Many events per head move, so the chain's rate grows with the
 * batch, not with the number of requests.
 */

/** An event as its request wrote it: id and time fixed, no position yet. `pendingKey` names its pending item. */
export type PendingAuditEvent = Omit<AuditEntry, 'at'> & { id: string; at: string; pendingKey: string };

/**
 * Events chained per transaction: DynamoDB takes at most 100 actions in one TransactWriteItems, and each event needs
 * two (put the chained event, delete its pending item) beside the head's update.
 */
export const MAX_CHAIN_BATCH = 49;

/**
 * Races lost in a row while the head does not move (a transaction conflict, not another chainer's progress) before
 * the drain gives up with a TransientError (the stream hands the batch again).
 */
export const MAX_CHAIN_ATTEMPTS = 8;

export type ChainStore = {
  /** The hospital's head, read consistently (EMPTY_HEAD for a chain with no event). */
  head(hospitalId: string): Promise<ChainHead>;
  /** The oldest pending events of the hospital, in order, at most `limit`. */
  pending(hospitalId: string, limit: number): Promise<PendingAuditEvent[]>;
  /**
   * One transaction: each event put at its free position, each pending item removed (it must still be there), the
   * head moved from `previous` to the last event. 'raced' when a condition failed: another chainer got there first,
   * and nothing was written.
   */
  commit(
    hospitalId: string,
    previous: ChainHead,
    events: readonly ChainedAuditEvent[],
    pending: readonly PendingAuditEvent[],
  ): Promise<'committed' | 'raced'>;
};

/** Links `pending` (in the order given) after `head`; the events keep the id and time their requests gave them. */
export async function chainBatch(head: ChainHead, pending: readonly PendingAuditEvent[]): Promise<ChainedAuditEvent[]> {
  const events: ChainedAuditEvent[] = [];
  let previous = head;
  for (const item of pending) {
    const { pendingKey: _, id, at, ...entry } = item;
    const event = await chainNext(previous, { ...entry, at }, id, at);
    events.push(event);
    previous = { seq: event.seq, hash: event.hash };
  }
  return events;
}

export type DrainResult = { chained: number; batches: number; races: number };

/**
 * Chains every event pending for the hospital, a batch at a time, until a batch comes back short (anything written
 * after its read has a stream record of its own, which drains it). Safe to run twice at once or again after a crash: a
 * pending item leaves only in the transaction that chains it, and that transaction holds only while the head is the
 * one its events link to, so an event is chained once, never lost, and a crash at any step leaves either the whole
 * batch chained or the whole batch pending. The head is read once and then known from the batch written last; a lost
 * race reads it again.
 */
export async function drainPending(
  store: ChainStore,
  hospitalId: string,
  options: { batchSize?: number; backOff?: (attempt: number) => Promise<void> } = {},
): Promise<DrainResult> {
  const batchSize = Math.min(options.batchSize ?? MAX_CHAIN_BATCH, MAX_CHAIN_BATCH);
  const backOff = options.backOff ?? defaultBackOff;
  const result: DrainResult = { chained: 0, batches: 0, races: 0 };
  let lostInARow = 0;
  let lostTo: ChainHead | undefined;
  let known: ChainHead | undefined;
  for (;;) {
    const head = known ?? (await store.head(hospitalId));
    // A head that moved since the last lost race is another chainer making progress: losing to it is no failure.
    if (lostTo && head.seq !== lostTo.seq) lostInARow = 0;
    const pending = await store.pending(hospitalId, batchSize);
    if (pending.length === 0) return result;
    const events = await chainBatch(head, pending);
    const outcome = await store.commit(hospitalId, head, events, pending);
    if (outcome === 'committed') {
      result.chained += events.length;
      result.batches++;
      lostInARow = 0;
      if (pending.length < batchSize) return result;
      const last = events.at(-1)!;
      known = { seq: last.seq, hash: last.hash };
      continue;
    }
    known = undefined;
    result.races++;
    lostTo = head;
    if (++lostInARow >= MAX_CHAIN_ATTEMPTS) throw new TransientError('audit chainer lost every race for the head');
    await backOff(lostInARow);
  }
}

/** A chainer that lost a race waits a random few milliseconds, longer each time. */
function defaultBackOff(attempt: number): Promise<void> {
  const ms = Math.random() * Math.min(200, 5 * 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, ms));
}
