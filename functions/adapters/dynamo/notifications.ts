import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys, withoutKeys } from '#shared/definitions/table/keys.ts';
import { TABLE_KEYS, TTL_ATTRIBUTE } from '#shared/definitions/table/table.ts';
import type { NotificationInbox, NotificationRecord } from '#shared/domain/notifications/ports.ts';
import type { Table } from './client.ts';
import { isConditionFailure } from './expressions.ts';

/** Notifications are kept 90 days (DynamoDB TTL); the list shows the 50 newest. */
export const NOTIFICATION_TTL_SECONDS = 90 * 24 * 60 * 60;

const P = TABLE_KEYS.primary;

export function createNotificationInbox(table: Table): NotificationInbox {
  const { doc } = table;
  return {
    async add(n) {
      await doc.send(
        new PutCommand({
          TableName: table.tableName,
          Item: {
            ...keys.notification(n.hospitalId, n.userId, n.createdAt, n.id),
            entity: 'notification',
            ...n,
            [TTL_ATTRIBUTE]: Math.floor(Date.parse(n.createdAt) / 1000) + NOTIFICATION_TTL_SECONDS,
          },
        }),
      );
    },
    async listNewest(hospitalId, userId, limit) {
      const now = Math.floor(Date.now() / 1000);
      const { Items } = await doc.send(
        new QueryCommand({
          TableName: table.tableName,
          KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
          ExpressionAttributeNames: { '#pk': P.pk, '#sk': P.sk },
          ExpressionAttributeValues: {
            ':pk': keys.notificationPartition(hospitalId, userId),
            ':prefix': keys.notificationPrefix,
          },
          ScanIndexForward: false,
          Limit: limit,
        }),
      );
      // TTL deletes lazily: an expired item may still be returned, so it is filtered here too.
      return (Items ?? [])
        .filter((item) => typeof item[TTL_ATTRIBUTE] !== 'number' || (item[TTL_ATTRIBUTE] as number) > now)
        .map((item) => {
          const { [TTL_ATTRIBUTE]: _ttl, ...rest } = withoutKeys(item);
          return rest as NotificationRecord;
        });
    },
    async markRead(hospitalId, userId, notifications) {
      await Promise.all(
        notifications.map((n) =>
          doc
            .send(
              new UpdateCommand({
                TableName: table.tableName,
                Key: keys.notification(hospitalId, userId, n.createdAt, n.id),
                UpdateExpression: 'SET #read = :true',
                ConditionExpression: 'attribute_exists(#pk)',
                ExpressionAttributeNames: { '#read': 'read', '#pk': P.pk },
                ExpressionAttributeValues: { ':true': true },
              }),
            )
            // One that expired meanwhile is gone: nothing to mark.
            .catch((error: unknown) => {
              if (!isConditionFailure(error)) throw error;
            }),
        ),
      );
    },
  };
}
