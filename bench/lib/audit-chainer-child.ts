/**
 * The audit chainer in a process of its own, for the audit bench (bench/lib/audit-chainer.ts): the stand-in for the
 * Lambda function the table's stream invokes (docs/domain.md#how-an-event-travels). The parent names the hospitals
 * written to; this process drains them one batch at a time with the appender's own chainer, in order per hospital.
 */
import { createDocumentClient } from '#functions/adapters/dynamo/client.ts';
import { createDynamoChainStore } from '#functions/adapters/dynamo/audit-pending.ts';
import { drainPending } from '#shared/domain/audit/batch-chain.ts';

export type ChainerMessage =
  { type: 'drain'; hospitalIds: string[] } | { type: 'settle'; id: number; hospitalIds: string[] };
export type ChainerReply = { type: 'settled'; id: number; batches: number };

const [endpoint, tableName] = process.argv.slice(2);
if (!endpoint || !tableName) throw new Error('usage: audit-chainer-child <dynamodb endpoint> <table>');
const store = createDynamoChainStore({ doc: createDocumentClient({ region: 'us-east-1', endpoint }), tableName });
let tail: Promise<void> = Promise.resolve();
let batches = 0;

const drain = (hospitalIds: string[]) =>
  (tail = tail.then(async () => {
    for (const hospitalId of hospitalIds) batches += (await drainPending(store, hospitalId)).batches;
  }));

process.on('message', (message: ChainerMessage) => {
  if (message.type === 'drain') void drain(message.hospitalIds);
  else void drain(message.hospitalIds).then(() => process.send?.({ type: 'settled', id: message.id, batches }));
});
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'ready' });
