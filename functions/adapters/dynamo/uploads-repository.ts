import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { hospitalPk, keys, withoutKeys } from '#shared/db/keys.ts';
import { TTL_ATTRIBUTE } from '#shared/db/table.ts';
import type { UploadFileRecord, UploadRepository, UploadSessionRecord } from '#shared/domain/uploads/ports.ts';
import type { Table } from './client.ts';
import { batchDelete, batchPut, isConditionFailure, primaryKeyOf, queryAll } from './expressions.ts';

/** DynamoDB deletes expired items within days, not at once: an expired item reads as gone. */
const live = (item: Record<string, unknown>) =>
  typeof item[TTL_ATTRIBUTE] !== 'number' || item[TTL_ATTRIBUTE] * 1000 > Date.now();

export function createUploadRepository(table: Table): UploadRepository {
  const { doc, tableName: TableName } = table;
  return {
    async createSession(session, files) {
      await batchPut(
        table,
        files.map((file) => ({
          ...keys.uploadFile(file.hospitalId, file.sessionId, file.fileIndex),
          entity: 'uploadFile',
          ...file,
          [TTL_ATTRIBUTE]: file.expiresAtEpoch,
        })),
      );
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
    async listFiles(hospitalId, sessionId) {
      const items = await queryAll(table, hospitalPk(hospitalId), keys.uploadFilePrefix(sessionId), {
        ConsistentRead: true,
      });
      return items.filter(live).map((item) => withoutKeys(item) as UploadFileRecord);
    },
    async getFile(hospitalId, sessionId, fileIndex) {
      const { Item } = await doc.send(
        new GetCommand({ TableName, Key: keys.uploadFile(hospitalId, sessionId, fileIndex), ConsistentRead: true }),
      );
      return Item && live(Item) ? (withoutKeys(Item) as UploadFileRecord) : undefined;
    },
    async markFileComplete(hospitalId, sessionId, fileIndex) {
      await doc.send(
        new UpdateCommand({
          TableName,
          Key: keys.uploadFile(hospitalId, sessionId, fileIndex),
          UpdateExpression: 'SET #status = :complete',
          ConditionExpression: 'attribute_exists(objectKey)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':complete': 'COMPLETE' },
        }),
      );
    },
    async claimMultipartUpload(hospitalId, sessionId, fileIndex, multipartUploadId) {
      try {
        await doc.send(
          new UpdateCommand({
            TableName,
            Key: keys.uploadFile(hospitalId, sessionId, fileIndex),
            UpdateExpression: 'SET multipartUploadId = :id',
            ConditionExpression: 'attribute_exists(objectKey) AND attribute_not_exists(multipartUploadId)',
            ExpressionAttributeValues: { ':id': multipartUploadId },
          }),
        );
        return multipartUploadId;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        const { Item } = await doc.send(
          new GetCommand({ TableName, Key: keys.uploadFile(hospitalId, sessionId, fileIndex), ConsistentRead: true }),
        );
        if (!Item?.multipartUploadId) throw error;
        return String(Item.multipartUploadId);
      }
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
    async deleteFiles(hospitalId, sessionId) {
      const items = await queryAll(table, hospitalPk(hospitalId), keys.uploadFilePrefix(sessionId));
      await batchDelete(table, items.map(primaryKeyOf));
    },
  };
}
