import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import type { Table } from '#functions/adapters/dynamo/client.ts';
import { startHarness, type Harness } from '#tests/integration/datasets-harness.ts';

/**
 * Starts the in-process harness (handlers over dynalite) before the file's tests and stops it after them. The value
 * returned stands for the started harness: read it inside tests and hooks, not at import time.
 */
export function useHarness(startTimeoutMs = 60_000): Harness {
  let started: Harness | undefined;
  beforeAll(async () => {
    started = await startHarness();
  }, startTimeoutMs);
  afterAll(async () => {
    await started?.stop();
  });
  return new Proxy({} as Harness, {
    get(_, key) {
      if (!started) throw new Error('The harness is read before it started (use it inside tests and hooks).');
      const value: unknown = Reflect.get(started, key);
      return typeof value === 'function' ? value.bind(started) : value;
    },
  });
}

/** Puts many items 25 at a time with ten writers in parallel (dynalite takes 10k puts in a few seconds that way). */
export async function bulkPut(table: Table, items: Record<string, unknown>[]): Promise<void> {
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  await Promise.all(
    Array.from({ length: 10 }, async (_, w) => {
      for (let b = w; b < batches.length; b += 10) {
        let request: Record<string, unknown[]> | undefined = {
          [table.tableName]: batches[b]!.map((Item) => ({ PutRequest: { Item } })),
        };
        while (request && Object.keys(request).length > 0) {
          const result = await table.doc.send(new BatchWriteCommand({ RequestItems: request as never }));
          request = result.UnprocessedItems as Record<string, unknown[]> | undefined;
        }
      }
    }),
  );
}
