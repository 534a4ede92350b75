import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keys, withoutKeys } from '#shared/definitions/table/keys.ts';
import { TABLE_KEYS, TTL_ATTRIBUTE } from '#shared/definitions/table/table.ts';
import type { DigestItem, NotificationLedger } from '#shared/domain/notifications/ports.ts';
import type { Table } from './client.ts';
import { writeIfCondition } from './expressions.ts';

const P = TABLE_KEYS.primary;
const DAY_SECONDS = 24 * 60 * 60;
/** A claim outlives the month or week it names; digest items wait at most a week and a day (DynamoDB TTL). */
const CLAIM_TTL_SECONDS = 62 * DAY_SECONDS;
const DIGEST_TTL_SECONDS = 15 * DAY_SECONDS;
const epoch = (at: string) => Math.floor(Date.parse(at) / 1000);

/**
 * The notification ledger in the single table (docs/domain.md#notifications): a claim is a conditional put, a digest
 * item a put under its hospital's and period's partition, a user's sign-in attempts one item rewritten per attempt.
 */
export function createNotificationLedger(table: Table): NotificationLedger {
  const { doc } = table;
  return {
    claimOnce: (hospitalId, key, at) =>
      writeIfCondition(() =>
        doc.send(
          new PutCommand({
            TableName: table.tableName,
            Item: {
              ...keys.notificationClaim(hospitalId, key),
              entity: 'notificationClaim',
              claimedAt: at,
              [TTL_ATTRIBUTE]: epoch(at) + CLAIM_TTL_SECONDS,
            },
            ConditionExpression: 'attribute_not_exists(#pk)',
            ExpressionAttributeNames: { '#pk': P.pk },
          }),
        ),
      ),
    async queueDigestItem(item) {
      await doc.send(
        new PutCommand({
          TableName: table.tableName,
          Item: {
            ...keys.digestItem(item.hospitalId, item.period, item.userId, item.createdAt, item.id),
            entity: 'digestItem',
            ...item,
            [TTL_ATTRIBUTE]: epoch(item.createdAt) + DIGEST_TTL_SECONDS,
          },
        }),
      );
    },
    async listDigestItems(hospitalId, period) {
      const items: DigestItem[] = [];
      let ExclusiveStartKey: Record<string, unknown> | undefined;
      do {
        const page = await doc.send(
          new QueryCommand({
            TableName: table.tableName,
            KeyConditionExpression: '#pk = :pk',
            ExpressionAttributeNames: { '#pk': P.pk },
            ExpressionAttributeValues: { ':pk': keys.digestPartition(hospitalId, period) },
            ExclusiveStartKey,
          }),
        );
        for (const item of page.Items ?? []) {
          const { [TTL_ATTRIBUTE]: _ttl, entity: _entity, ...rest } = withoutKeys(item);
          items.push(rest as DigestItem);
        }
        ExclusiveStartKey = page.LastEvaluatedKey;
      } while (ExclusiveStartKey);
      return items;
    },
    async noteSignInAttempt(hospitalId, userId, at, windowMs) {
      const key = keys.signInAttempts(hospitalId, userId);
      const { Item } = await doc.send(new GetCommand({ TableName: table.tableName, Key: key }));
      const before = Array.isArray(Item?.attempts) ? (Item.attempts as string[]) : [];
      const from = Date.parse(at) - windowMs;
      const attempts = [...before.filter((a) => Date.parse(a) >= from), at].sort();
      await doc.send(
        new PutCommand({
          TableName: table.tableName,
          Item: {
            ...key,
            entity: 'signInAttempts',
            attempts,
            [TTL_ATTRIBUTE]: epoch(at) + Math.ceil(windowMs / 1000),
          },
        }),
      );
      return attempts;
    },
    async clearSignInAttempts(hospitalId, userId) {
      await doc.send(new DeleteCommand({ TableName: table.tableName, Key: keys.signInAttempts(hospitalId, userId) }));
    },
  };
}
