import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys, withoutKeys } from '#shared/definitions/table/keys.ts';
import { TABLE_KEYS } from '#shared/definitions/table/table.ts';
import type { JobRecord, JobResultRecord, JobStore } from '#shared/domain/jobs/ports.ts';
import type { Table } from './client.ts';
import { batchPut, updateExpression, writeIfCondition } from './expressions.ts';

const P = TABLE_KEYS.primary;

/**
 * Jobs (docs/jobs.md): the job item under its starter's hospital, and one item per result under a partition of the
 * job's own, written by position so a retried chunk replaces rather than adds. A chunk's advance is one conditional
 * update on the job's chunk count.
 */
export function createJobStore(table: Table): JobStore {
  const { doc } = table;
  return {
    async create(job) {
      await doc.send(
        new PutCommand({
          TableName: table.tableName,
          Item: { ...keys.job(job.ownerHospitalId, job.id), entity: 'job', ...job },
          ConditionExpression: 'attribute_not_exists(#pk)',
          ExpressionAttributeNames: { '#pk': P.pk },
        }),
      );
    },
    async get(ref) {
      const { Item } = await doc.send(
        new GetCommand({
          TableName: table.tableName,
          Key: keys.job(ref.ownerHospitalId, ref.jobId),
          ConsistentRead: true,
        }),
      );
      return Item ? (withoutKeys(Item) as JobRecord) : undefined;
    },
    async advance(ref, expectedChunks, change) {
      const sets: Record<string, unknown> = {
        cursor: change.cursor,
        status: change.status,
        finishedAt: change.finishedAt,
        updatedAt: change.updatedAt,
        chunkFailures: 0,
        ...(change.total !== undefined ? { total: change.total } : {}),
        ...(change.error !== undefined ? { error: change.error } : {}),
      };
      const expression = updateExpression(sets);
      return writeIfCondition(() =>
        doc.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: keys.job(ref.ownerHospitalId, ref.jobId),
            UpdateExpression:
              `${expression.UpdateExpression}, #chunks = #chunks + :one, #processed = #processed + :processed, ` +
              '#succeeded = #succeeded + :succeeded, #failed = #failed + :failed',
            ConditionExpression: '#chunks = :expected',
            ExpressionAttributeNames: {
              ...expression.ExpressionAttributeNames,
              '#chunks': 'chunks',
              '#processed': 'processed',
              '#succeeded': 'succeeded',
              '#failed': 'failed',
            },
            ExpressionAttributeValues: {
              ...expression.ExpressionAttributeValues,
              ':one': 1,
              ':expected': expectedChunks,
              ':processed': change.processed,
              ':succeeded': change.succeeded,
              ':failed': change.failed,
            },
          }),
        ),
      );
    },
    async mark(ref, fields) {
      await doc.send(
        new UpdateCommand({
          TableName: table.tableName,
          Key: keys.job(ref.ownerHospitalId, ref.jobId),
          ...updateExpression(fields),
        }),
      );
    },
    async putResults(ref, results) {
      await batchPut(
        table,
        results.map((r) => ({ ...keys.jobResult(ref.ownerHospitalId, ref.jobId, r.seq), entity: 'jobResult', ...r })),
      );
    },
    async listResults(ref, limit, startKey) {
      const page = await doc.send(
        new QueryCommand({
          TableName: table.tableName,
          KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
          ExpressionAttributeNames: { '#pk': P.pk, '#sk': P.sk },
          ExpressionAttributeValues: {
            ':pk': keys.jobResultsPk(ref.ownerHospitalId, ref.jobId),
            ':prefix': keys.jobResultPrefix,
          },
          Limit: limit,
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      return {
        items: (page.Items ?? []).map((item) => withoutKeys(item) as JobResultRecord),
        ...(page.LastEvaluatedKey ? { lastKey: page.LastEvaluatedKey as Record<string, string> } : {}),
      };
    },
  };
}
