import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { AUDIT_PENDING_STREAM, keys, withoutKeys } from '#shared/definitions/table/keys.ts';
import { TABLE_KEYS } from '#shared/definitions/table/table.ts';
import { EMPTY_HEAD, type ChainedAuditEvent, type ChainHead } from '#shared/domain/audit/chain.ts';
import type { ChainStore, PendingAuditEvent } from '#shared/domain/audit/batch-chain.ts';
import type { AuditEntry } from '#shared/domain/ports.ts';
import { auditItem, type AuditAlongsideUpdate } from './audit-items.ts';
import type { Table } from './client.ts';
import { cancellationCodes } from './expressions.ts';

const P = TABLE_KEYS.primary;

/** The `entity` of a pending event: the table's stream hands the audit appender only items that carry it. */
export const AUDIT_PENDING_ENTITY = AUDIT_PENDING_STREAM.entity;

/** The stored item of a pending event: its key (time, then id) and the event as the request fixed it. */
export function pendingItem(entry: AuditEntry, id: string, at: string): Record<string, unknown> {
  return { ...keys.auditPending(entry.hospitalId, at, id), entity: AUDIT_PENDING_ENTITY, ...entry, id, at };
}

/** A stored pending item as the chainer takes it. */
export function pendingOf(item: Record<string, unknown>): PendingAuditEvent {
  return { ...(withoutKeys(item) as Omit<PendingAuditEvent, 'pendingKey'>), pendingKey: String(item[P.sk]) };
}

/**
 * The request side of the deferred trail (docs/domain.md#how-an-event-travels): one put of a pending event, with its
 * id and time fixed now, and with the caller's own update in the same transaction when there is one (a dataset status
 * change: the update's condition failing is index 0 of the cancellation reasons, as before). The request answers as
 * soon as this write is acknowledged; the audit appender chains it behind. `written` is told the hospital after each
 * write, for a process that chains its own events behind its requests instead of a stream.
 */
export function createPendingAuditWriter(
  table: Table,
  options: {
    now?: () => string;
    newId?: () => string;
    written?: (hospitalId: string) => void;
  } = {},
) {
  const { doc } = table;
  const now = options.now ?? (() => new Date().toISOString());
  const newId = options.newId ?? randomUUID;
  return async function append(entry: AuditEntry, alongside?: AuditAlongsideUpdate): Promise<void> {
    const at = entry.at ?? now();
    const put = {
      TableName: table.tableName,
      Item: pendingItem(entry, newId(), at),
      ConditionExpression: 'attribute_not_exists(#pk)',
      ExpressionAttributeNames: { '#pk': P.pk },
    };
    if (alongside) {
      await doc.send(new TransactWriteCommand({ TransactItems: [{ Update: alongside as never }, { Put: put }] }));
    } else {
      await doc.send(new PutCommand(put));
    }
    options.written?.(entry.hospitalId);
  };
}

/** The hospital's pending events, oldest first, read consistently; at most `limit`. */
export async function readPending(table: Table, hospitalId: string, limit: number): Promise<PendingAuditEvent[]> {
  const page = await table.doc.send(
    new QueryCommand({
      TableName: table.tableName,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': P.pk },
      ExpressionAttributeValues: { ':pk': keys.auditPendingPartition(hospitalId) },
      ConsistentRead: true,
      Limit: limit,
    }),
  );
  return ((page.Items ?? []) as Record<string, unknown>[]).map(pendingOf);
}

/**
 * The chain store of the batch chainer (shared/domain/audit/batch-chain.ts) on the table: one TransactWriteItems per
 * batch moves the head (condition: it still holds the hash the batch links to), puts each event at its position
 * (condition: free) and deletes each pending item (condition: still there). A cancelled transaction writes nothing.
 */
export function createDynamoChainStore(table: Table): ChainStore {
  const { doc } = table;
  return {
    async head(hospitalId) {
      const { Item } = await doc.send(
        new GetCommand({ TableName: table.tableName, Key: keys.auditHead(hospitalId), ConsistentRead: true }),
      );
      return {
        seq: typeof Item?.seq === 'number' ? Item.seq : EMPTY_HEAD.seq,
        hash: typeof Item?.hash === 'string' ? Item.hash : EMPTY_HEAD.hash,
      };
    },
    pending: (hospitalId, limit) => readPending(table, hospitalId, limit),
    async commit(hospitalId, previous, events, pending) {
      const last = events.at(-1);
      if (!last) return 'committed';
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              { Update: headMove(table, hospitalId, previous, last) },
              ...events.map((event) => ({
                Put: {
                  TableName: table.tableName,
                  Item: auditItem(event),
                  ConditionExpression: 'attribute_not_exists(#pk)',
                  ExpressionAttributeNames: { '#pk': P.pk },
                },
              })),
              ...pending.map((item) => ({
                Delete: {
                  TableName: table.tableName,
                  Key: { [P.pk]: keys.auditPendingPartition(hospitalId), [P.sk]: item.pendingKey },
                  ConditionExpression: 'attribute_exists(#pk)',
                  ExpressionAttributeNames: { '#pk': P.pk },
                },
              })),
            ],
          }),
        );
        return 'committed';
      } catch (error) {
        if (isLostRace(error)) return 'raced';
        throw error;
      }
    },
  };
}

/** The chain head moved from `previous` to `last`, only if no other writer moved it first (both ways of appending). */
export function headMove(
  table: Table,
  hospitalId: string,
  previous: ChainHead,
  last: Pick<ChainedAuditEvent, 'seq' | 'hash' | 'at'>,
) {
  return {
    TableName: table.tableName,
    Key: keys.auditHead(hospitalId),
    UpdateExpression: 'SET #seq = :seq, #hash = :hash, #at = :at, #entity = :entity',
    ConditionExpression: previous.seq === 0 ? 'attribute_not_exists(#hash) OR #hash = :prev' : '#hash = :prev',
    ExpressionAttributeNames: { '#seq': 'seq', '#hash': 'hash', '#at': 'at', '#entity': 'entity' },
    ExpressionAttributeValues: {
      ':seq': last.seq,
      ':hash': last.hash,
      ':at': last.at,
      ':entity': 'auditHead',
      ':prev': previous.hash,
    },
  };
}

/** Cancelled because the head moved, a position was taken or a pending item was gone: another chainer got there. */
function isLostRace(error: unknown): boolean {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return false;
  return (cancellationCodes(error) ?? []).some((c) => c === 'ConditionalCheckFailed' || c === 'TransactionConflict');
}
