import { BatchWriteCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { IndexPartition } from '#shared/definitions/table/keys.ts';
import { TABLE_KEYS } from '#shared/definitions/table/table.ts';
import { ConflictError, TransientError } from '#shared/domain/errors.ts';
import type { Table } from './client.ts';

/**
 * SET for defined fields, REMOVE for fields set to undefined (e.g. clearing a failure reason), as one
 * UpdateExpression with placeholders for every name and value.
 */
export function updateExpression(fields: Record<string, unknown>): {
  UpdateExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
} {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  const removes: string[] = [];
  Object.entries(fields).forEach(([name, value], i) => {
    names[`#f${i}`] = name;
    if (value === undefined) removes.push(`#f${i}`);
    else {
      values[`:f${i}`] = value;
      sets.push(`#f${i} = :f${i}`);
    }
  });
  const expression = [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : '']
    .filter(Boolean)
    .join(' ');
  return { UpdateExpression: expression, ExpressionAttributeNames: names, ExpressionAttributeValues: values };
}

/** Why DynamoDB cancelled a transaction, one code per item ('None' for the items that were fine). */
export function cancellationCodes(error: unknown): string[] | undefined {
  const reasons = (error as { CancellationReasons?: { Code?: string }[] } | undefined)?.CancellationReasons;
  return reasons?.map((reason) => reason.Code ?? 'None');
}

/** Cancellation reasons that say "try again", not "your condition is false". */
const RETRYABLE_CANCELLATIONS = new Set([
  'TransactionConflict',
  'ThrottlingError',
  'ProvisionedThroughputExceeded',
  'RequestLimitExceeded',
]);

/** A conditional write whose condition was false: a single write, or a transaction cancelled for that reason. */
export function isConditionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'ConditionalCheckFailedException') return true;
  if (error.name !== 'TransactionCanceledException') return false;
  const codes = cancellationCodes(error);
  // Without reasons there is nothing better to go on than the condition.
  return !codes || codes.includes('ConditionalCheckFailed');
}

/**
 * A lost conditional write is a ConflictError; throttling, a concurrent transaction on the same item or a transaction
 * cancelled for capacity a TransientError (the pipeline retries it); the rest goes up as it is.
 */
export function mapWriteError(error: unknown): never {
  if (isConditionFailure(error)) throw new ConflictError();
  if (!(error instanceof Error)) throw error;
  if (
    /Throttl|ProvisionedThroughputExceeded|RequestLimitExceeded|InternalServerError|TransactionConflict|TransactionInProgress/.test(
      error.name,
    ) ||
    (error.name === 'TransactionCanceledException' &&
      (cancellationCodes(error) ?? []).some((code) => RETRYABLE_CANCELLATIONS.has(code)))
  ) {
    throw new TransientError(error.name);
  }
  throw error;
}

/** A conditional write: true when it was written, false when its condition was false; other failures as mapWriteError. */
export async function writeIfCondition(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    return mapWriteError(error);
  }
}

/** Every page of one query, items in the order DynamoDB returns them. */
async function allPages(table: Table, input: QueryCommandInput): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await table.doc.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    items.push(...((page.Items ?? []) as Record<string, unknown>[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** All items of a partition under a sort-key prefix (bounded collections: a dataset's series, assets, files). */
export async function queryAll(
  table: Table,
  pk: string,
  skPrefix: string,
  extra: Partial<QueryCommandInput> = {},
): Promise<Record<string, unknown>[]> {
  return allPages(table, {
    TableName: table.tableName,
    KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
    ExpressionAttributeNames: { '#pk': TABLE_KEYS.primary.pk, '#sk': TABLE_KEYS.primary.sk },
    ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
    ...extra,
  });
}

/**
 * How many items a query matches, every page, without reading them (`Select: COUNT`: DynamoDB answers the number of
 * items it evaluated and kept, and bills their size).
 */
export async function countAll(
  table: Table,
  query: Omit<QueryCommandInput, 'TableName' | 'Select' | 'ExclusiveStartKey'>,
): Promise<number> {
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await table.doc.send(
      new QueryCommand({ ...query, TableName: table.tableName, Select: 'COUNT', ExclusiveStartKey: startKey }),
    );
    count += page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return count;
}

/** All items of one index partition, every page (bounded collections, or seed-only recounts). */
export async function queryPartitionAll(table: Table, partition: IndexPartition): Promise<Record<string, unknown>[]> {
  return allPages(table, {
    TableName: table.tableName,
    IndexName: partition.index,
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': partition.pkName },
    ExpressionAttributeValues: { ':pk': partition.pk },
  });
}

/** Writes items 25 at a time, re-sending what DynamoDB leaves unprocessed. */
export async function batchPut(table: Table, items: Record<string, unknown>[]): Promise<void> {
  await batchWrite(
    table,
    items.map((Item) => ({ PutRequest: { Item } })),
  );
}

async function batchWrite(table: Table, all: unknown[]): Promise<void> {
  for (let i = 0; i < all.length; i += 25) {
    let requests = all.slice(i, i + 25);
    for (let attempt = 0; requests.length > 0; attempt++) {
      if (attempt > 8) throw new TransientError('BatchWrite left items unprocessed');
      const result = await table.doc.send(
        new BatchWriteCommand({ RequestItems: { [table.tableName]: requests as never } }),
      );
      requests = result.UnprocessedItems?.[table.tableName] ?? [];
      if (requests.length > 0) await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
    }
  }
}

/** Deletes keys 25 at a time, re-sending what DynamoDB leaves unprocessed. */
export async function batchDelete(table: Table, keys: Record<string, string>[]): Promise<void> {
  await batchWrite(
    table,
    keys.map((Key) => ({ DeleteRequest: { Key } })),
  );
}

export function primaryKeyOf(item: Record<string, unknown>): Record<string, string> {
  return {
    [TABLE_KEYS.primary.pk]: String(item[TABLE_KEYS.primary.pk]),
    [TABLE_KEYS.primary.sk]: String(item[TABLE_KEYS.primary.sk]),
  };
}
