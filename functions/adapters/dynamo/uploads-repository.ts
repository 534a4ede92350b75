import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys, withoutKeys } from '#shared/definitions/table/keys.ts';
import type { UploadRepository, UploadSessionRecord } from '#shared/domain/uploads/ports.ts';
import type { Table } from './client.ts';

export function createUploadRepository(table: Table): UploadRepository {
  const { doc, tableName: TableName } = table;
  return {
    async createSession(session) {
      await doc.send(
        new PutCommand({
          TableName,
          Item: { ...keys.uploadSession(session.hospitalId, session.sessionId), entity: 'uploadSession', ...session },
        }),
      );
    },
    async getSession(hospitalId, sessionId) {
      const { Item } = await doc.send(
        new GetCommand({ TableName, Key: keys.uploadSession(hospitalId, sessionId), ConsistentRead: true }),
      );
      return Item ? (withoutKeys(Item) as UploadSessionRecord) : undefined;
    },
    async setSessionStatus(hospitalId, sessionId, status) {
      await doc.send(
        new UpdateCommand({
          TableName,
          Key: keys.uploadSession(hospitalId, sessionId),
          UpdateExpression: 'SET #status = :status',
          ConditionExpression: 'attribute_exists(datasetId)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':status': status },
        }),
      );
    },
  };
}
