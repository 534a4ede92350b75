import { createAuditChainWriter, type AuditChainWriter } from '#functions/adapters/dynamo/audit-log.ts';
import { createDynamoChainStore, createPendingAuditWriter } from '#functions/adapters/dynamo/audit-pending.ts';
import type { Table } from '#functions/adapters/dynamo/client.ts';
import { drainPending } from '#shared/domain/audit/batch-chain.ts';

/**
 * The deferred audit trail in one process (docs/domain.md#how-an-event-travels), for the harness and the bench: the
 * requests' writer puts pending events, and a stand-in for the table's stream gathers the hospitals written to for a
 * few milliseconds, then drains them one batch at a time with the appender's own chainer, as the stream's single
 * shard per hospital does. `pause` holds the chainer back (the stream lagging), `settled` waits until it caught up.
 */
export function createInProcessAuditStream(table: Table, options: { windowMs?: number } = {}) {
  const windowMs = options.windowMs ?? 10;
  const store = createDynamoChainStore(table);
  const waiting = new Set<string>();
  let paused = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let tail: Promise<void> = Promise.resolve();
  let batches = 0;

  function flush(): void {
    timer = undefined;
    if (paused || waiting.size === 0) return;
    const hospitals = [...waiting];
    waiting.clear();
    tail = tail.then(async () => {
      for (const hospitalId of hospitals) batches += (await drainPending(store, hospitalId)).batches;
    });
  }
  function written(hospitalId: string): void {
    waiting.add(hospitalId);
    if (!paused) timer ??= setTimeout(flush, windowMs);
  }

  const direct = createAuditChainWriter(table);
  const writer: AuditChainWriter = {
    append: createPendingAuditWriter(table, { written }),
    recordVerification: direct.recordVerification,
    async settle(hospitalId) {
      await tail;
      await drainPending(store, hospitalId);
    },
  };
  return {
    writer,
    pause: () => void (paused = true),
    resume(): void {
      paused = false;
      flush();
    },
    /** Waits until every hospital written to so far is drained. */
    async settled(): Promise<void> {
      if (timer) clearTimeout(timer);
      flush();
      await tail;
    },
    /** Transactions that moved a head so far (each chains up to MAX_CHAIN_BATCH events). */
    batches: () => batches,
  };
}
