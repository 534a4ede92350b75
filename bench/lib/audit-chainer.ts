import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AuditChainWriter } from '#functions/adapters/dynamo/audit-log.ts';
import { createAuditChainWriter } from '#functions/adapters/dynamo/audit-log.ts';
import { createPendingAuditWriter } from '#functions/adapters/dynamo/audit-pending.ts';
import type { Table } from '#functions/adapters/dynamo/client.ts';
import type { ChainerMessage, ChainerReply } from './audit-chainer-child.ts';

const require = createRequire(import.meta.url);
const CHILD = fileURLToPath(new URL('./audit-chainer-child.ts', import.meta.url));

/**
 * The deferred audit trail with its chainer in a process of its own (bench/lib/audit-chainer-child.ts), as in the
 * cloud, where the chain is built by a function of its own, not by the requests' (docs/domain.md#how-an-event-travels):
 * requests put pending events here; the hospitals written to are handed over every `windowMs`, as Lambda polls a
 * stream's shard. `settled` waits until everything written so far is chained.
 */
export async function startChainerProcess(table: Table, endpoint: string, options: { windowMs?: number } = {}) {
  const windowMs = options.windowMs ?? 250;
  const child = fork(CHILD, [endpoint, table.tableName], {
    execArgv: ['--import', pathToFileURL(require.resolve('tsx')).href],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the chainer process exited during start (${code})`)));
  });
  const known = new Set<string>();
  const waiting = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let nextId = 0;
  let batches = 0;
  const send = (message: ChainerMessage) => child.send(message);

  function handOver(): void {
    timer = undefined;
    if (waiting.size === 0) return;
    send({ type: 'drain', hospitalIds: [...waiting] });
    waiting.clear();
  }
  function written(hospitalId: string): void {
    known.add(hospitalId);
    waiting.add(hospitalId);
    timer ??= setTimeout(handOver, windowMs);
  }
  async function settled(hospitalIds = [...known]): Promise<void> {
    if (timer) clearTimeout(timer);
    handOver();
    const id = ++nextId;
    const reply = new Promise<ChainerReply>((resolve) => {
      const listen = (message: ChainerReply) => {
        if (message.type !== 'settled' || message.id !== id) return;
        child.off('message', listen);
        resolve(message);
      };
      child.on('message', listen);
    });
    send({ type: 'settle', id, hospitalIds });
    batches = (await reply).batches;
  }

  const direct = createAuditChainWriter(table);
  const writer: AuditChainWriter = {
    append: createPendingAuditWriter(table, { written }),
    recordVerification: direct.recordVerification,
    settle: (hospitalId) => settled([hospitalId]),
  };
  return {
    writer,
    settled: () => settled(),
    /** Transactions that moved a head so far, as of the last `settled`. */
    batches: () => batches,
    close: () => void child.disconnect(),
  };
}
