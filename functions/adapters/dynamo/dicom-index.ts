import { BatchGetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { DatasetRecord, SeriesRecord } from '#shared/domain/datasets/ports.ts';
import { TransientError } from '#shared/domain/errors.ts';
import { keys, withoutKeys } from '#shared/definitions/table/keys.ts';
import { TABLE_KEYS } from '#shared/definitions/table/table.ts';
import { TAG } from '#shared/dicom/tags.ts';
import type {
  DicomIndex,
  GuardItems,
  IndexedInstance,
  IndexedSeries,
  IndexedStudy,
  IndexQuery,
} from '#shared/domain/intake/dicom-index.ts';
import type { Table } from './client.ts';
import { batchPut } from './expressions.ts';

function first(attributes: IndexedStudy['attributes'], tag: string): string {
  const value = attributes[tag]?.Value?.[0];
  return value === undefined || value === null || typeof value === 'object' ? '' : String(value);
}

/** The item of a study copy, with the index attributes its StudyDate, PatientID and AccessionNumber give. */
export function studyItem(s: IndexedStudy): Record<string, unknown> {
  return {
    ...keys.dicomStudy(s.hospitalId, s.studyUID, s.rank),
    ...keys.dicomStudyIndexes(s.hospitalId, {
      studyUID: s.studyUID,
      rank: s.rank,
      studyDate: first(s.attributes, TAG.StudyDate),
      patientId: first(s.attributes, TAG.PatientID),
      accessionNumber: first(s.attributes, '00080050'),
    }),
    entity: 'dicomStudy',
    ...s,
  };
}

export function seriesItem(s: IndexedSeries): Record<string, unknown> {
  return {
    ...keys.dicomSeries(s.hospitalId, s.studyUID, s.seriesUID, s.rank),
    ...keys.dicomSeriesIndexes(s.hospitalId, s.seriesUID, s.rank),
    entity: 'dicomSeries',
    ...s,
  };
}

export function instanceItem(i: IndexedInstance): Record<string, unknown> {
  return {
    ...keys.dicomInstance(i.hospitalId, i.studyUID, i.seriesUID, i.sopUID, i.rank),
    ...keys.dicomInstanceIndexes(i.hospitalId, i.sopUID, i.rank),
    entity: 'dicomInstance',
    ...i,
  };
}

type KeyCondition = Pick<
  QueryCommandInput,
  'IndexName' | 'KeyConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
>;

function prefixOn(pkName: string, skName: string, pk: string, prefix: string, index?: string): KeyCondition {
  return {
    ...(index ? { IndexName: index } : {}),
    KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
    ExpressionAttributeNames: { '#pk': pkName, '#sk': skName },
    ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
  };
}

/** The key condition of a query (keys.ts names every partition and prefix). */
function conditionOf(hospitalId: string, query: IndexQuery): KeyCondition {
  const P = TABLE_KEYS.primary;
  const base = (prefix: string) => prefixOn(P.pk, P.sk, keys.dicomIndexPartition(hospitalId), prefix);
  const on = (partition: { index: string; pkName: string; skName: string; pk: string }, prefix: string) =>
    prefixOn(partition.pkName, partition.skName, partition.pk, prefix, partition.index);
  if (query.level === 'study') {
    if ('studyDate' in query) {
      const partition = keys.dicomStudyByDate(hospitalId);
      // Dates are YYYYMMDD: from the first study of `from` to the last of `to` (`~` sorts after every digit and `#`).
      return {
        IndexName: partition.index,
        KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
        ExpressionAttributeNames: { '#pk': partition.pkName, '#sk': partition.skName },
        ExpressionAttributeValues: {
          ':pk': partition.pk,
          ':from': query.studyDate.from || '0',
          ':to': `${query.studyDate.to || '99999999'}~`,
        },
      };
    }
    if ('patientId' in query) return on(keys.dicomStudyByPatientId(hospitalId, query.patientId), '');
    if ('accessionNumber' in query) return on(keys.dicomStudyByAccession(hospitalId, query.accessionNumber), '');
    return base(keys.dicomStudyPrefix(query.studyUID));
  }
  if (query.level === 'series') {
    if (query.seriesUID && !query.studyUID) return on(keys.dicomSeriesByUid(hospitalId), `${query.seriesUID}#`);
    return base(keys.dicomSeriesPrefix(query.studyUID, query.studyUID ? query.seriesUID : undefined));
  }
  if (query.sopUID && !(query.studyUID && query.seriesUID))
    return on(keys.dicomInstanceByUid(hospitalId), `${query.sopUID}#`);
  return base(keys.dicomInstancePrefix(query.studyUID, query.studyUID ? query.seriesUID : undefined, query.sopUID));
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
          ...conditionOf(hospitalId, query),
          Limit: page.limit,
          ...(page.startKey ? { ExclusiveStartKey: page.startKey } : {}),
        }),
      );
      const items = (result.Items ?? []).map((item) => withoutKeys(item)) as never[];
      return { items, ...(result.LastEvaluatedKey ? { next: result.LastEvaluatedKey } : {}) };
    },
  };
}
