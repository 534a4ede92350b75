import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { hospitalPk, keys, withoutKeys } from '#shared/definitions/table/keys.ts';
import type { ScimTokenRecord, ScimTokenStore } from '#shared/domain/scim/ports.ts';
import type { Table } from './client.ts';
import { queryAll } from './expressions.ts';

/**
 * SCIM tokens (docs/sso.md#provisioning-scim): the item under the hospital, plus a lookup item by the token's SHA-256
 * holding the ids only. Revoking deletes the lookup first, so a revoked token finds nothing from then on.
 */
export function createScimTokenStore(table: Table): ScimTokenStore {
  const { doc } = table;
  const get = async (hospitalId: string, tokenId: string) => {
    const { Item } = await doc.send(
      new GetCommand({ TableName: table.tableName, Key: keys.scimToken(hospitalId, tokenId), ConsistentRead: true }),
    );
    return Item ? (withoutKeys(Item) as ScimTokenRecord) : undefined;
  };
  return {
    async create(record) {
      await doc.send(
        new PutCommand({
          TableName: table.tableName,
          Item: { ...keys.scimToken(record.hospitalId, record.id), entity: 'scimToken', ...record },
        }),
      );
      await doc.send(
        new PutCommand({
          TableName: table.tableName,
          Item: {
            ...keys.scimTokenByHash(record.hash),
            entity: 'scimTokenLookup',
            hospitalId: record.hospitalId,
            tokenId: record.id,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },
    async list(hospitalId) {
      const items = await queryAll(table, hospitalPk(hospitalId), keys.scimTokenPrefix);
      return items.map((item) => withoutKeys(item) as ScimTokenRecord);
    },
    get,
    async byHash(hash) {
      const { Item } = await doc.send(
        new GetCommand({ TableName: table.tableName, Key: keys.scimTokenByHash(hash), ConsistentRead: true }),
      );
      if (!Item) return undefined;
      const found = await get(String(Item.hospitalId), String(Item.tokenId));
      return found && !found.revokedAt && found.hash === hash ? found : undefined;
    },
    async revoke(hospitalId, tokenId, at, byUserId) {
      const existing = await get(hospitalId, tokenId);
      if (existing)
        await doc.send(new DeleteCommand({ TableName: table.tableName, Key: keys.scimTokenByHash(existing.hash) }));
      const { Attributes } = await doc.send(
        new UpdateCommand({
          TableName: table.tableName,
          Key: keys.scimToken(hospitalId, tokenId),
          UpdateExpression: 'SET revokedAt = :at, revokedByUserId = :by',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':at': at, ':by': byUserId },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return withoutKeys(Attributes!) as ScimTokenRecord;
    },
  };
}
