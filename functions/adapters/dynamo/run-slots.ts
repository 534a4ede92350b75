import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { TABLE_KEYS } from '#shared/definitions/table/table.ts';
import { keys } from '#shared/definitions/table/keys.ts';
import { TransientError } from '#shared/domain/errors.ts';
import { NO_RUN_SLOTS, type RunSlots, type RunSlotStore } from '#shared/domain/pipeline/run-slots.ts';
import type { Table } from './client.ts';

/** Lost races in a row before giving up to the state machine's retry (many runs of one hospital asking at once). */
const MAX_RACES = 10;

/**
 * The per-hospital semaphore item, changed read-modify-write under a version condition: two runs that read the same
 * version cannot both write, so the limit holds however many ask at once (the loser reads again).
 */
export function createRunSlotStore(table: Table): RunSlotStore {
  return {
    async update(hospitalId, change) {
      const key = keys.runSlots(hospitalId);
      for (let race = 0; race < MAX_RACES; race++) {
        const { Item } = await table.doc.send(
          new GetCommand({ TableName: table.tableName, Key: key, ConsistentRead: true }),
        );
        const version = typeof Item?.version === 'number' ? Item.version : undefined;
        const current: RunSlots = Item
          ? {
              holders: (Item.holders as RunSlots['holders']) ?? {},
              waiting: (Item.waiting as RunSlots['waiting']) ?? [],
            }
          : NO_RUN_SLOTS;
        const { slots, result } = change(current);
        try {
          await table.doc.send(
            new PutCommand({
              TableName: table.tableName,
              Item: { ...key, holders: slots.holders, waiting: slots.waiting, version: (version ?? 0) + 1 },
              ...(version === undefined
                ? {
                    ConditionExpression: 'attribute_not_exists(#pk)',
                    ExpressionAttributeNames: { '#pk': TABLE_KEYS.primary.pk },
                  }
                : {
                    ConditionExpression: '#version = :version',
                    ExpressionAttributeNames: { '#version': 'version' },
                    ExpressionAttributeValues: { ':version': version },
                  }),
            }),
          );
          return result;
        } catch (error) {
          if (!(error instanceof Error && error.name === 'ConditionalCheckFailedException')) throw error;
        }
      }
      throw new TransientError('The run slots of a hospital were changed concurrently too often');
    },
  };
}
