/**
 * Counts what the DynamoDB clients read, for the hospital-scale bench and the scale tests: the read calls made and the
 * items DynamoDB evaluated for them (a query's or scan's ScannedCount, which counts items a filter then drops; a
 * GetItem's item; a BatchGetItem's items), and the read capacity it reports (every read asks for
 * ReturnConsumedCapacity TOTAL). Writes are counted apart, by call.
 */
import type { ClientWithMiddleware } from '#functions/adapters/aws-clients.ts';

export type ReadCount = {
  /** Query and Scan calls. */
  queries: number;
  /** GetItem and BatchGetItem calls. */
  gets: number;
  /** Items DynamoDB evaluated to answer the reads (ScannedCount for queries and scans). */
  itemsRead: number;
  /** Items the reads handed back (after filters). */
  itemsReturned: number;
  /** Read capacity units DynamoDB reported. */
  capacity: number;
  /** Write calls (Put, Update, Delete, BatchWrite, TransactWrite). */
  writes: number;
};

export const emptyCount = (): ReadCount => ({
  queries: 0,
  gets: 0,
  itemsRead: 0,
  itemsReturned: 0,
  capacity: 0,
  writes: 0,
});

// The document client's commands and the low-level client's: a document client shares its client's middleware.
const QUERIES = new Set(['QueryCommand', 'ScanCommand']);
const GETS = new Set(['GetCommand', 'GetItemCommand']);
const BATCH_GETS = new Set(['BatchGetCommand', 'BatchGetItemCommand', 'TransactGetCommand', 'TransactGetItemsCommand']);
const READS = new Set([...QUERIES, ...GETS, ...BATCH_GETS]);
const WRITES = new Set([
  'PutCommand',
  'PutItemCommand',
  'UpdateCommand',
  'UpdateItemCommand',
  'DeleteCommand',
  'DeleteItemCommand',
  'BatchWriteCommand',
  'BatchWriteItemCommand',
  'TransactWriteCommand',
  'TransactWriteItemsCommand',
]);

type Capacity = { CapacityUnits?: number };
type ReadOutput = {
  Items?: unknown[];
  Item?: unknown;
  Count?: number;
  ScannedCount?: number;
  Responses?: Record<string, unknown[]> | { Item?: unknown }[];
  ConsumedCapacity?: Capacity | Capacity[];
};

export type ReadMeter = {
  /** The running total since the last reset. */
  count: ReadCount;
  /** Answers the total so far and starts again from zero. */
  reset(): ReadCount;
  /** Adds the meter to a client (an AWS SDK client of any service: only DynamoDB's commands are counted). */
  attach(client: ClientWithMiddleware): void;
};

/**
 * A meter to attach to clients: registered with `registerClientHook` (functions/adapters/aws-clients.ts) before the
 * adapters build theirs, it sees every DynamoDB call the handlers make.
 */
export function createReadMeter(): ReadMeter {
  const count = emptyCount();
  const middleware =
    (next: (args: { input: unknown }) => Promise<{ output: unknown }>, context: { commandName?: string }) =>
    async (args: { input: unknown }) => {
      const name = context.commandName ?? '';
      if (READS.has(name)) (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      if (WRITES.has(name)) count.writes += 1;
      if (!READS.has(name)) return result;
      const output = result.output as ReadOutput;
      if (QUERIES.has(name)) {
        count.queries += 1;
        count.itemsRead += output.ScannedCount ?? output.Items?.length ?? output.Count ?? 0;
        count.itemsReturned += output.Items?.length ?? output.Count ?? 0;
      } else if (GETS.has(name)) {
        count.gets += 1;
        count.itemsRead += output.Item ? 1 : 0;
        count.itemsReturned += output.Item ? 1 : 0;
      } else {
        count.gets += 1;
        const responses = output.Responses ?? {};
        const n = Array.isArray(responses)
          ? responses.filter((r) => r.Item).length
          : Object.values(responses).reduce((sum, items) => sum + items.length, 0);
        count.itemsRead += n;
        count.itemsReturned += n;
      }
      const consumed = output.ConsumedCapacity;
      for (const c of Array.isArray(consumed) ? consumed : consumed ? [consumed] : [])
        count.capacity += c.CapacityUnits ?? 0;
      return result;
    };
  return {
    attach(client) {
      client.middlewareStack.add(middleware as never, { step: 'initialize', name: 'meterReads' });
    },
    count,
    reset() {
      const before = { ...count };
      Object.assign(count, emptyCount());
      return before;
    },
  };
}
