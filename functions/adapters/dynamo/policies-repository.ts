import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys, withoutKeys } from '#shared/definitions/table/keys.ts';
import type { DeidentificationPolicies, StoredDeidentificationPolicy } from '#shared/domain/settings/ports.ts';
import type { Table } from './client.ts';

/** The hospital's de-identification policy: one item in the hospital's partition. */
export function createPolicyRepository(table: Table): DeidentificationPolicies {
  const { doc, tableName: TableName } = table;
  return {
    async get(hospitalId) {
      const { Item } = await doc.send(
        new GetCommand({ TableName, Key: keys.deidentificationPolicy(hospitalId), ConsistentRead: true }),
      );
      return Item ? (withoutKeys(Item) as StoredDeidentificationPolicy) : undefined;
    },
    async put(hospitalId, policy) {
      await doc.send(
        new PutCommand({
          TableName,
          Item: { ...keys.deidentificationPolicy(hospitalId), entity: 'deidentificationPolicy', ...policy },
        }),
      );
    },
  };
}
