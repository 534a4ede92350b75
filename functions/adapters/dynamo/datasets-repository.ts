import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  datasetListIndexes,
  datasetStatusPartition,
  hospitalPk,
  keys,
  withoutKeys,
} from '#shared/definitions/table/keys.ts';
import { TABLE_KEYS } from '#shared/definitions/table/table.ts';
import type {
  AssetRecord,
  DatasetListPage,
  DatasetListQuery,
  DatasetRecord,
  DatasetRepository,
  SeriesRecord,
} from '#shared/domain/datasets/ports.ts';
import type { AuditEntry } from '#shared/domain/ports.ts';
import { ConflictError, NotFoundError } from '#shared/domain/errors.ts';
import type { DatasetStatus } from '#shared/vocabulary/datasets.ts';
import { createAuditChainWriter, type AuditChainWriter } from './audit-log.ts';
import type { Table } from './client.ts';
import {
  batchDelete,
  batchPut,
  isConditionFailure,
  mapWriteError,
  primaryKeyOf,
  queryAll,
  updateExpression,
} from './expressions.ts';

/** With a filter (status within a team, or search) a page may need a few reads to fill; never more than this. */
export const MAX_READS_PER_PAGE = 4;

const P = TABLE_KEYS.primary;

export function createDatasetRepository(
  table: Table,
  auditWriter: AuditChainWriter = createAuditChainWriter(table),
): DatasetRepository {
  const { doc, tableName: TableName } = table;

  async function get(hospitalId: string, datasetId: string): Promise<DatasetRecord | undefined> {
    const { Item } = await doc.send(
      new GetCommand({ TableName, Key: keys.dataset(hospitalId, datasetId), ConsistentRead: true }),
    );
    return Item && !Item.deletedAt ? (withoutKeys(Item) as DatasetRecord) : undefined;
  }

  async function getInBin(hospitalId: string, datasetId: string): Promise<DatasetRecord | undefined> {
    const { Item } = await doc.send(
      new GetCommand({ TableName, Key: keys.dataset(hospitalId, datasetId), ConsistentRead: true }),
    );
    return Item?.deletedAt ? (withoutKeys(Item) as DatasetRecord) : undefined;
  }

  /** An update of a live dataset (not in the bin) with extra REMOVE names; NotFoundError when it is not live. */
  async function updateLive(
    hospitalId: string,
    datasetId: string,
    fields: Record<string, unknown>,
    condition: { expression?: string; names?: Record<string, string>; values?: Record<string, unknown> } = {},
    onFailure: () => never = () => {
      throw new NotFoundError('DATASET_NOT_FOUND');
    },
  ): Promise<DatasetRecord> {
    const { ExpressionAttributeValues: fieldValues, ...expression } = updateExpression(fields);
    // DynamoDB refuses an empty value map (a hold lifted is a REMOVE alone).
    const values = { ...fieldValues, ...condition.values };
    try {
      const { Attributes } = await doc.send(
        new UpdateCommand({
          TableName,
          Key: keys.dataset(hospitalId, datasetId),
          ...expression,
          ConditionExpression: ['attribute_exists(#pk)', condition.expression].filter(Boolean).join(' AND '),
          ExpressionAttributeNames: { ...expression.ExpressionAttributeNames, '#pk': P.pk, ...condition.names },
          ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
          ReturnValues: 'ALL_NEW',
        }),
      );
      return withoutKeys(Attributes!) as DatasetRecord;
    } catch (error) {
      if (isConditionFailure(error)) onFailure();
      return mapWriteError(error);
    }
  }

  async function conditionalUpdate(
    hospitalId: string,
    datasetId: string,
    fields: Record<string, unknown>,
    expected: readonly DatasetStatus[],
    audit?: AuditEntry,
  ): Promise<DatasetRecord> {
    const expression = updateExpression(fields);
    const statusValues = Object.fromEntries(expected.map((s, i) => [`:expected${i}`, s]));
    const update = {
      TableName,
      Key: keys.dataset(hospitalId, datasetId),
      ...expression,
      // A dataset in the recycle bin is not there for any write but a restore (docs/domain.md#recycle-bin).
      ConditionExpression: `attribute_exists(#pk) AND attribute_not_exists(#deletedAt) AND #status IN (${Object.keys(statusValues).join(', ')})`,
      ExpressionAttributeNames: {
        ...expression.ExpressionAttributeNames,
        '#pk': P.pk,
        '#status': 'status',
        '#deletedAt': 'deletedAt',
      },
      ExpressionAttributeValues: { ...expression.ExpressionAttributeValues, ...statusValues },
    };
    try {
      if (audit) {
        // The status write and its audit event go in one transaction with the chain's head (a transaction returns no
        // item, so the dataset is read back).
        await auditWriter.append(audit, update);
        return (await get(hospitalId, datasetId))!;
      }
      const { Attributes } = await doc.send(new UpdateCommand({ ...update, ReturnValues: 'ALL_NEW' }));
      return withoutKeys(Attributes!) as DatasetRecord;
    } catch (error) {
      if (isConditionFailure(error) && !(await get(hospitalId, datasetId)))
        throw new NotFoundError('DATASET_NOT_FOUND');
      return mapWriteError(error);
    }
  }

  async function list(query: DatasetListQuery): Promise<DatasetListPage> {
    const index =
      query.teamId !== undefined
        ? datasetListIndexes.byTeamRecent(query.hospitalId, query.teamId)
        : query.status
          ? datasetListIndexes.byStatus(query.hospitalId, query.status)
          : datasetListIndexes.byHospitalRecent(query.hospitalId);
    const filters: string[] = [];
    const names: Record<string, string> = { '#ipk': index.pkName };
    const values: Record<string, unknown> = { ':ipk': index.pk };
    if (query.status && query.teamId !== undefined) {
      filters.push('#status = :status');
      names['#status'] = 'status';
      values[':status'] = query.status;
    }
    if (query.ownerUserId) {
      filters.push('#owner = :owner');
      names['#owner'] = 'ownerUserId';
      values[':owner'] = query.ownerUserId;
    }
    if (query.search) {
      names['#searchText'] = 'searchText';
      values[':search'] = query.search;
      if (query.searchAlias) {
        filters.push('(contains(#searchText, :search) OR #alias = :alias)');
        names['#alias'] = 'patientAlias';
        values[':alias'] = query.searchAlias;
      } else filters.push('contains(#searchText, :search)');
    }
    // A period is a range on the index sort key (`<ISO createdAt>#<id>`), so only that slice of the partition is read.
    let keyCondition = '#ipk = :ipk';
    if (query.createdFrom && query.createdBefore) {
      // `<createdBefore>` sorts before every `<createdBefore>#<id>`, so BETWEEN leaves that instant out.
      keyCondition += ' AND #isk BETWEEN :createdFrom AND :createdBefore';
      names['#isk'] = index.skName;
      values[':createdFrom'] = query.createdFrom;
      values[':createdBefore'] = query.createdBefore;
    } else if (query.createdFrom) {
      keyCondition += ' AND #isk >= :createdFrom';
      names['#isk'] = index.skName;
      values[':createdFrom'] = query.createdFrom;
    }
    const items: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined = query.startKey;
    let reads = 0;
    let exhausted = false;
    while (items.length < query.limit && reads < MAX_READS_PER_PAGE) {
      const page = await doc.send(
        new QueryCommand({
          TableName,
          IndexName: index.index,
          KeyConditionExpression: keyCondition,
          ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ScanIndexForward: false,
          Limit: query.limit,
          ExclusiveStartKey: startKey,
        }),
      );
      reads += 1;
      items.push(...((page.Items ?? []) as Record<string, unknown>[]));
      startKey = page.LastEvaluatedKey;
      if (!startKey) {
        exhausted = true;
        break;
      }
    }
    const returned = items.slice(0, query.limit);
    const more = items.length > query.limit || !exhausted;
    const last = returned.at(-1);
    // Continue after the last item returned (not after the last item read): nothing read but not returned is lost.
    const lastKey =
      more && last
        ? {
            ...primaryKeyOf(last),
            [index.pkName]: String(last[index.pkName]),
            [index.skName]: String(last[index.skName]),
          }
        : more && startKey
          ? (startKey as Record<string, string>)
          : undefined;
    return { items: returned.map((item) => withoutKeys(item) as DatasetRecord), ...(lastKey ? { lastKey } : {}) };
  }

  return {
    get,
    async create(dataset) {
      try {
        await doc.send(
          new PutCommand({
            TableName,
            Item: {
              ...keys.dataset(dataset.hospitalId, dataset.id),
              ...keys.datasetIndexes(dataset),
              entity: 'dataset',
              ...dataset,
            },
            ConditionExpression: 'attribute_not_exists(#pk)',
            ExpressionAttributeNames: { '#pk': P.pk },
          }),
        );
      } catch (error) {
        mapWriteError(error);
      }
    },
    update: (hospitalId, datasetId, fields, expected) =>
      conditionalUpdate(hospitalId, datasetId, { ...fields }, expected),
    transition(hospitalId, datasetId, from, to, fields = {}, audit) {
      return conditionalUpdate(
        hospitalId,
        datasetId,
        {
          ...fields,
          status: to,
          [TABLE_KEYS.gsi2.pk]: datasetStatusPartition(hospitalId, to),
        },
        from,
        audit,
      );
    },
    list,
    getInBin,
    moveToBin(dataset, bin) {
      const gone = Object.fromEntries(keys.datasetListOnlyIndexNames.map((name) => [name, undefined]));
      return updateLive(
        dataset.hospitalId,
        dataset.id,
        { ...bin, ...gone, ...keys.datasetBinIndexes({ ...dataset, purgeAfter: bin.purgeAfter }) },
        {
          expression: 'attribute_not_exists(#binned) AND attribute_not_exists(#hold) AND #status = :status',
          names: { '#binned': 'deletedAt', '#hold': 'legalHold', '#status': 'status' },
          values: { ':status': dataset.status },
        },
        () => {
          throw new ConflictError();
        },
      );
    },
    async restoreFromBin(hospitalId, datasetId) {
      const binned = await getInBin(hospitalId, datasetId);
      if (!binned) throw new NotFoundError('DATASET_NOT_FOUND');
      const binFields = ['deletedAt', 'purgeAfter', 'deletedByUserId', 'deletedByName', 'deletionReason'];
      return updateLive(
        hospitalId,
        datasetId,
        { ...Object.fromEntries(binFields.map((f) => [f, undefined])), ...keys.datasetIndexes(binned) },
        { expression: 'attribute_exists(#binned)', names: { '#binned': 'deletedAt' } },
      );
    },
    async listBin(query) {
      const index = datasetListIndexes.recycleBin(query.hospitalId);
      const names: Record<string, string> = { '#ipk': index.pkName };
      const values: Record<string, unknown> = { ':ipk': index.pk };
      let keyCondition = '#ipk = :ipk';
      if (query.purgeBy) {
        keyCondition += ' AND #isk <= :purgeBy';
        names['#isk'] = index.skName;
        values[':purgeBy'] = query.purgeBy;
      }
      const page = await doc.send(
        new QueryCommand({
          TableName,
          IndexName: index.index,
          KeyConditionExpression: keyCondition,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ScanIndexForward: true,
          Limit: query.limit,
          ExclusiveStartKey: query.startKey,
        }),
      );
      return {
        items: (page.Items ?? []).map((item) => withoutKeys(item) as DatasetRecord),
        ...(page.LastEvaluatedKey ? { lastKey: page.LastEvaluatedKey as Record<string, string> } : {}),
      };
    },
    setLegalHold(hospitalId, datasetId, hold) {
      return updateLive(
        hospitalId,
        datasetId,
        { legalHold: hold },
        { expression: 'attribute_not_exists(#binned)', names: { '#binned': 'deletedAt' } },
      );
    },
    async listSeries(hospitalId, datasetId) {
      const items = await queryAll(table, hospitalPk(hospitalId), keys.seriesPrefix(datasetId), {
        ConsistentRead: true,
      });
      return items.map((item) => withoutKeys(item) as SeriesRecord);
    },
    async putSeries(series) {
      await doc.send(
        new PutCommand({
          TableName,
          Item: { ...keys.series(series.hospitalId, series.datasetId, series.id), entity: 'series', ...series },
        }),
      );
    },
    async updateSeries(hospitalId, datasetId, seriesId, fields) {
      const expression = updateExpression(fields);
      try {
        const { Attributes } = await doc.send(
          new UpdateCommand({
            TableName,
            Key: keys.series(hospitalId, datasetId, seriesId),
            ...expression,
            ConditionExpression: 'attribute_exists(#pk)',
            ExpressionAttributeNames: { ...expression.ExpressionAttributeNames, '#pk': P.pk },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return withoutKeys(Attributes!) as SeriesRecord;
      } catch (error) {
        if (isConditionFailure(error)) throw new NotFoundError('SERIES_NOT_FOUND');
        return mapWriteError(error);
      }
    },
    async listAssets(hospitalId, datasetId) {
      const items = await queryAll(table, hospitalPk(hospitalId), keys.assetPrefix(datasetId), {
        ConsistentRead: true,
      });
      return items.map((item) => withoutKeys(item) as AssetRecord);
    },
    async putAsset(asset) {
      await doc.send(
        new PutCommand({
          TableName,
          Item: { ...keys.asset(asset.hospitalId, asset.datasetId, asset.id), entity: 'asset', ...asset },
        }),
      );
    },
    async putAssets(assets) {
      await batchPut(
        table,
        assets.map((asset) => ({
          ...keys.asset(asset.hospitalId, asset.datasetId, asset.id),
          entity: 'asset',
          ...asset,
        })),
      );
    },
    async deleteAll(hospitalId, datasetId, uploadSessionId) {
      const children = await queryAll(table, hospitalPk(hospitalId), keys.datasetChildrenPrefix(datasetId), {
        ProjectionExpression: '#pk, #sk',
        ExpressionAttributeNames: { '#pk': P.pk, '#sk': P.sk },
      });
      const uploads = uploadSessionId
        ? await queryAll(table, hospitalPk(hospitalId), `UPLOAD#${uploadSessionId}`, {
            ProjectionExpression: '#pk, #sk',
            ExpressionAttributeNames: { '#pk': P.pk, '#sk': P.sk },
          })
        : [];
      const all = [...children, ...uploads].map(primaryKeyOf);
      await batchDelete(table, all);
      await doc.send(new DeleteCommand({ TableName, Key: keys.dataset(hospitalId, datasetId) }));
      return all.length + 1;
    },
  };
}
