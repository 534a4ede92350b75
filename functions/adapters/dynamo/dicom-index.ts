import { BatchGetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { DatasetRecord, SeriesRecord } from '#shared/domain/datasets/ports.ts';
import { TransientError } from '#shared/domain/errors.ts';
import { keys, withoutKeys } from '#shared/definitions/table/keys.ts';
import type { DicomIndex, GuardItems } from '#shared/domain/intake/dicom-index.ts';
import type { Table } from './client.ts';
import { instanceItem, keyRangeOf, seriesItem, studyItem, type KeyRange } from './dicom-index-items.ts';
import { batchPut } from './expressions.ts';

function conditionOf(range: KeyRange): Partial<QueryCommandInput> {
  return {
    ...(range.index ? { IndexName: range.index } : {}),
    KeyConditionExpression:
      'prefix' in range.range ? '#pk = :pk AND begins_with(#sk, :prefix)' : '#pk = :pk AND #sk BETWEEN :from AND :to',
    ExpressionAttributeNames: { '#pk': range.pkName, '#sk': range.skName },
    ExpressionAttributeValues: {
      ':pk': range.pk,
      ...Object.fromEntries(Object.entries(range.range).map(([k, v]) => [`:${k}`, v])),
    },
  };
}

/** The DICOMweb index in the single table (docs/dicom-intake.md#the-dicomweb-index). */
export function createDicomIndex(table: Table): DicomIndex {
  return {
    async put({ studies, series, instances }) {
      // Instances first: a study or series item names only copies whose instances can already be found.
      await batchPut(table, instances.map(instanceItem));
      await batchPut(table, series.map(seriesItem));
      await batchPut(table, studies.map(studyItem));
    },
    async guardItems(hospitalId, refs) {
      const wanted = new Map<string, Record<string, string>>();
      for (const ref of refs) {
        const dataset = keys.dataset(hospitalId, ref.datasetId);
        const series = keys.series(hospitalId, ref.datasetId, ref.seriesUID);
        wanted.set(Object.values(dataset).join('|'), dataset);
        wanted.set(Object.values(series).join('|'), series);
      }
      const found: GuardItems = { datasets: new Map(), series: new Map() };
      const all = [...wanted.values()];
      // BatchGetItem takes 100 keys a request; what it leaves unprocessed is asked again.
      for (let i = 0; i < all.length; i += 100) {
        let pending: Record<string, string>[] = all.slice(i, i + 100);
        for (let attempt = 0; pending.length > 0; attempt++) {
          if (attempt > 8) throw new TransientError('BatchGet left keys unprocessed');
          const result = await table.doc.send(
            new BatchGetCommand({ RequestItems: { [table.tableName]: { Keys: pending, ConsistentRead: true } } }),
          );
          for (const item of result.Responses?.[table.tableName] ?? []) {
            if (item.entity === 'dataset' && !item.deletedAt) {
              const dataset = withoutKeys(item) as DatasetRecord;
              found.datasets.set(dataset.id, dataset);
            } else if (item.entity === 'series') {
              const series = withoutKeys(item) as SeriesRecord;
              found.series.set(`${series.datasetId}#${series.id}`, series);
            }
          }
          pending = (result.UnprocessedKeys?.[table.tableName]?.Keys ?? []) as Record<string, string>[];
          if (pending.length > 0) await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
        }
      }
      return found;
    },
    async query(hospitalId, query, page) {
      const result = await table.doc.send(
        new QueryCommand({
          TableName: table.tableName,
          ...conditionOf(keyRangeOf(hospitalId, query)),
          Limit: page.limit,
          ...(page.startKey ? { ExclusiveStartKey: page.startKey } : {}),
        }),
      );
      const items = (result.Items ?? []).map((item) => withoutKeys(item)) as never[];
      return { items, ...(result.LastEvaluatedKey ? { next: result.LastEvaluatedKey } : {}) };
    },
  };
}
