import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys, withoutKeys } from '#shared/definitions/table/keys.ts';
import { TABLE_KEYS } from '#shared/definitions/table/table.ts';
import type { IntakeStore, IntakeStudyRecord } from '#shared/domain/intake/ports.ts';
import type { Table } from './client.ts';
import { isConditionFailure, writeIfCondition } from './expressions.ts';

/** Studies being received: one item each, moved by conditional updates, found by the sweep through gsi2. */
export function createIntakeStore(table: Table): IntakeStore {
  const { doc } = table;
  const key = (r: Pick<IntakeStudyRecord, 'hospitalId' | 'integrationId' | 'studyInstanceUID'>) =>
    keys.intakeStudy(r.hospitalId, r.integrationId, r.studyInstanceUID);
  return {
    async get(hospitalId, integrationId, studyInstanceUID) {
      const { Item } = await doc.send(
        new GetCommand({
          TableName: table.tableName,
          Key: keys.intakeStudy(hospitalId, integrationId, studyInstanceUID),
          ConsistentRead: true,
        }),
      );
      return Item ? (withoutKeys(Item) as IntakeStudyRecord) : undefined;
    },
    create(record) {
      return writeIfCondition(() =>
        doc.send(
          new PutCommand({
            TableName: table.tableName,
            Item: {
              ...key(record),
              ...keys.intakeDue(record.commitAfter, record.hospitalId, record.integrationId, record.studyInstanceUID),
              entity: 'intakeStudy',
              ...record,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        ),
      );
    },
    async reserveFile(hospitalId, integrationId, studyInstanceUID, bytes, at, commitAfter) {
      const due = keys.intakeDue(commitAfter, hospitalId, integrationId, studyInstanceUID);
      try {
        const { Attributes } = await doc.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: keys.intakeStudy(hospitalId, integrationId, studyInstanceUID),
            UpdateExpression:
              'ADD fileCount :one, receivedBytes :bytes SET lastReceivedAt = :at, commitAfter = :after, #g2sk = :g2sk',
            // A study closed for its commit takes no more files (docs/dicom-intake.md#commit).
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(committingAt)',
            ExpressionAttributeNames: { '#g2sk': Object.keys(due)[1]! },
            ExpressionAttributeValues: {
              ':one': 1,
              ':bytes': bytes,
              ':at': at,
              ':after': commitAfter,
              ':g2sk': Object.values(due)[1],
            },
            ReturnValues: 'ALL_NEW',
          }),
        );
        // The index of this file is the count before it was added.
        return { fileIndex: Number(Attributes!.fileCount) - 1, datasetId: String(Attributes!.datasetId) };
      } catch (error) {
        if (isConditionFailure(error)) return undefined;
        throw error;
      }
    },
    async closeForCommit(hospitalId, integrationId, studyInstanceUID, at) {
      try {
        const { Attributes } = await doc.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: keys.intakeStudy(hospitalId, integrationId, studyInstanceUID),
            UpdateExpression: 'SET committingAt = if_not_exists(committingAt, :at)',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':at': at },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return Attributes ? (withoutKeys(Attributes) as IntakeStudyRecord) : undefined;
      } catch (error) {
        if (isConditionFailure(error)) return undefined;
        throw error;
      }
    },
    async remove(hospitalId, integrationId, studyInstanceUID) {
      await doc.send(
        new DeleteCommand({
          TableName: table.tableName,
          Key: keys.intakeStudy(hospitalId, integrationId, studyInstanceUID),
        }),
      );
    },
    async receivingBytes(hospitalId) {
      const { pk, sk } = TABLE_KEYS.primary;
      const partition = keys.intakeStudy(hospitalId, '', '');
      let total = 0;
      let start: Record<string, unknown> | undefined;
      do {
        const page = await doc.send(
          new QueryCommand({
            TableName: table.tableName,
            KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
            ExpressionAttributeNames: { '#pk': pk, '#sk': sk, '#bytes': 'receivedBytes' },
            ExpressionAttributeValues: { ':pk': partition[pk], ':prefix': 'INTAKE#' },
            ProjectionExpression: '#bytes',
            ExclusiveStartKey: start,
          }),
        );
        for (const item of page.Items ?? []) total += Number(item.receivedBytes ?? 0) || 0;
        start = page.LastEvaluatedKey;
      } while (start);
      return total;
    },
    async due(now, limit) {
      const partition = keys.intakeDuePartition();
      const { Items } = await doc.send(
        new QueryCommand({
          TableName: table.tableName,
          IndexName: partition.index,
          KeyConditionExpression: '#pk = :pk AND #sk < :now',
          ExpressionAttributeNames: { '#pk': partition.pkName, '#sk': partition.skName },
          ExpressionAttributeValues: { ':pk': partition.pk, ':now': `${now}#` },
          Limit: limit,
        }),
      );
      return (Items ?? []).map((item) => withoutKeys(item) as IntakeStudyRecord);
    },
  };
}
