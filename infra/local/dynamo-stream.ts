import type { IncomingMessage, ServerResponse } from 'node:http';
import { AUDIT_PENDING_STREAM } from '#shared/definitions/table/keys.ts';
import { TABLE_KEYS } from '#shared/definitions/table/table.ts';

/**
 * The twin's stand-in for the table's stream as the audit appender sees it (docs/local-twin.md#audit-stream): dynalite
 * has no streams, so the router watches the writes it passes to dynalite, and for each one dynalite accepted, hands
 * the appender the inserted pending events as stream records, with the cloud's filter (AUDIT_PENDING_STREAM: inserts
 * of that entity) and batch size. Records wait a few milliseconds to gather into a batch, batches go one at a time
 * (one shard), and a failed batch is handed again up to AUDIT_PENDING_STREAM.retryAttempts times, as the cloud's
 * event source mapping does.
 */

/** How long a record waits for others to join its batch (the cloud's mapping polls a shard several times a second). */
export const STREAM_BATCH_WINDOW_MS = 20;

type AttributeMap = Record<string, { S?: string } & Record<string, unknown>>;
export type StreamRecord = {
  eventName: 'INSERT';
  eventSource: 'aws:dynamodb';
  dynamodb: { Keys: AttributeMap; NewImage: AttributeMap; StreamViewType: string };
};

const WRITES = new Set(['DynamoDB_20120810.PutItem', 'DynamoDB_20120810.TransactWriteItems']);

/** The items a write request puts, from its body (a PutItem's Item, a transaction's Put items). */
export function putItemsOf(target: string, body: string): AttributeMap[] {
  let request: { Item?: AttributeMap; TransactItems?: { Put?: { Item?: AttributeMap } }[] };
  try {
    request = JSON.parse(body) as typeof request;
  } catch {
    return [];
  }
  if (target.endsWith('.PutItem')) return request.Item ? [request.Item] : [];
  return (request.TransactItems ?? []).flatMap((action) => (action.Put?.Item ? [action.Put.Item] : []));
}

/** The stream records of the pending events among `items`, as the cloud's filter lets them through. */
export function pendingRecordsOf(items: readonly AttributeMap[]): StreamRecord[] {
  return items
    .filter((item) => item.entity?.S === AUDIT_PENDING_STREAM.entity)
    .map((item) => ({
      eventName: 'INSERT',
      eventSource: 'aws:dynamodb',
      dynamodb: {
        Keys: {
          [TABLE_KEYS.primary.pk]: item[TABLE_KEYS.primary.pk]!,
          [TABLE_KEYS.primary.sk]: item[TABLE_KEYS.primary.sk]!,
        },
        NewImage: item,
        StreamViewType: AUDIT_PENDING_STREAM.view,
      },
    }));
}

export function createPendingStream(options: {
  deliver: (event: { Records: StreamRecord[] }) => Promise<unknown>;
  log: (line: string) => void;
  retryDelayMs?: number;
}) {
  const retryDelayMs = options.retryDelayMs ?? 500;
  let waiting: StreamRecord[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let tail: Promise<void> = Promise.resolve();
  let closed = false;

  async function deliverWithRetries(records: StreamRecord[]): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await options.deliver({ Records: records });
        return;
      } catch (error) {
        if (closed || attempt >= AUDIT_PENDING_STREAM.retryAttempts) {
          // The events stay pending: the hospital's next event, or a verification, chains them.
          options.log(`audit stream: batch of ${records.length} not delivered (${(error as Error).name})`);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, retryDelayMs * (attempt + 1)));
      }
    }
  }

  function flush(): void {
    timer = undefined;
    while (waiting.length > 0) {
      const batch = waiting.slice(0, AUDIT_PENDING_STREAM.batchSize);
      waiting = waiting.slice(batch.length);
      tail = tail.then(() => deliverWithRetries(batch));
    }
  }

  function add(records: StreamRecord[]): void {
    if (closed || records.length === 0) return;
    waiting.push(...records);
    timer ??= setTimeout(flush, STREAM_BATCH_WINDOW_MS);
  }

  return {
    /** Watches a request on its way to dynalite (call once its body is being passed on). */
    observe(req: IncomingMessage, res: ServerResponse): void {
      const target = req.headers['x-amz-target'];
      if (typeof target !== 'string' || !WRITES.has(target)) return;
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('finish', () => {
        if (res.statusCode !== 200) return;
        add(pendingRecordsOf(putItemsOf(target, Buffer.concat(chunks).toString('utf8'))));
      });
    },
    /** Hands over what is waiting, then takes nothing more. */
    async close(): Promise<void> {
      if (timer) clearTimeout(timer);
      flush();
      closed = true;
      await tail;
    },
  };
}
