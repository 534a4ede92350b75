import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { hospitalPk, keys, withoutKeys } from '#shared/definitions/table/keys.ts';
import type { IntegrationRecord, IntegrationStore } from '#shared/domain/integrations/ports.ts';
import type { Table } from './client.ts';
import { queryAll, writeIfCondition } from './expressions.ts';

/**
 * Integrations: the item under the hospital, plus a lookup item per app client id and per AE title (written first,
 * conditionally, so an AE title is never claimed twice). The lookups hold ids only.
 */
export function createIntegrationStore(table: Table): IntegrationStore {
  const { doc } = table;
  const get = async (hospitalId: string, integrationId: string) => {
    const { Item } = await doc.send(
      new GetCommand({
        TableName: table.tableName,
        Key: keys.integration(hospitalId, integrationId),
        ConsistentRead: true,
      }),
    );
    return Item ? (withoutKeys(Item) as IntegrationRecord) : undefined;
  };
  const lookup = async (key: Record<string, string>) => {
    const { Item } = await doc.send(new GetCommand({ TableName: table.tableName, Key: key }));
    if (!Item) return undefined;
    const found = await get(String(Item.hospitalId), String(Item.integrationId));
    return found?.status === 'ACTIVE' ? found : undefined;
  };
  return {
    async create(record) {
      const ids = { hospitalId: record.hospitalId, integrationId: record.id };
      if (record.aeTitle) {
        const claimed = await writeIfCondition(() =>
          doc.send(
            new PutCommand({
              TableName: table.tableName,
              Item: { ...keys.integrationByAeTitle(record.aeTitle!), entity: 'integrationLookup', ...ids },
              ConditionExpression: 'attribute_not_exists(pk)',
            }),
          ),
        );
        if (!claimed) return false;
      }
      if (record.clientId) {
        await doc.send(
          new PutCommand({
            TableName: table.tableName,
            Item: { ...keys.integrationByClientId(record.clientId), entity: 'integrationLookup', ...ids },
          }),
        );
      }
      await doc.send(
        new PutCommand({
          TableName: table.tableName,
          Item: { ...keys.integration(record.hospitalId, record.id), entity: 'integration', ...record },
        }),
      );
      return true;
    },
    get,
    async list(hospitalId) {
      const items = await queryAll(table, hospitalPk(hospitalId), keys.integrationPrefix);
      return items.map((item) => withoutKeys(item) as IntegrationRecord);
    },
    byClientId: (clientId) => lookup(keys.integrationByClientId(clientId)),
    byAeTitle: (aeTitle) => lookup(keys.integrationByAeTitle(aeTitle)),
    async revoke(hospitalId, integrationId, at) {
      const { Attributes } = await doc.send(
        new UpdateCommand({
          TableName: table.tableName,
          Key: keys.integration(hospitalId, integrationId),
          UpdateExpression: 'SET #status = :revoked, revokedAt = :at',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':revoked': 'REVOKED', ':at': at },
          ReturnValues: 'ALL_NEW',
        }),
      );
      const record = withoutKeys(Attributes!) as IntegrationRecord;
      if (record.aeTitle)
        await doc.send(
          new DeleteCommand({ TableName: table.tableName, Key: keys.integrationByAeTitle(record.aeTitle) }),
        );
      if (record.clientId)
        await doc.send(
          new DeleteCommand({ TableName: table.tableName, Key: keys.integrationByClientId(record.clientId) }),
        );
      return record;
    },
    async touch(hospitalId, integrationId, at) {
      await writeIfCondition(() =>
        doc.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: keys.integration(hospitalId, integrationId),
            UpdateExpression: 'SET lastUsedAt = :at',
            ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :before)',
            ExpressionAttributeValues: { ':at': at, ':before': new Date(Date.parse(at) - 60_000).toISOString() },
          }),
        ),
      );
    },
  };
}
