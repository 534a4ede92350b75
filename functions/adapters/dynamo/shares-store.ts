import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { hospitalPk, keys, withoutKeys } from '#shared/definitions/table/keys.ts';
import { TABLE_KEYS, TTL_ATTRIBUTE } from '#shared/definitions/table/table.ts';
import { ConflictError } from '#shared/domain/errors.ts';
import type {
  PatientSessionRecord,
  PatientShareRecord,
  ShareAccessRecord,
  ShareApprovalRecord,
  ShareStore,
  TeamShareRecord,
} from '#shared/domain/shares/ports.ts';
import type { Table } from './client.ts';
import { countAll, isConditionFailure, queryAll, updateExpression } from './expressions.ts';

const P = TABLE_KEYS.primary;
const G3 = TABLE_KEYS.gsi3;

/** Access events are kept a year (DynamoDB TTL), as long as the default retention of the audit reports. */
const ACCESS_EVENT_TTL_SECONDS = 365 * 24 * 60 * 60;

const epoch = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/**
 * The by-expiry index entry of a patient share after an update that touches its status or expiry: written while the
 * share stays (or becomes) ACTIVE, removed when it leaves ACTIVE (docs/domain.md#indexes).
 */
function byExpiryIndex(share: PatientShareRecord, fields: Partial<PatientShareRecord>): Record<string, unknown> {
  if (fields.status === undefined && fields.expiresAt === undefined) return {};
  const next = { ...share, ...fields };
  if (next.status === 'ACTIVE') return keys.activePatientShareByExpiry(next);
  return Object.fromEntries(keys.activePatientShareIndexNames.map((name) => [name, undefined]));
}

/**
 * Sort keys `<expiresAt>#<id>` below this bound are of shares whose expiry is at or before `now` (an ISO-8601 instant:
 * `$` sorts right after the `#` that follows an equal expiry), the same instant `effectiveStatus` calls expired.
 */
const expiredBound = (now: string) => `${now}$`;

/** The hospital's shares stored ACTIVE whose expiry is at or before `now`, on their sparse by-expiry index. */
function activePastExpiry(hospitalId: string, now: string) {
  const partition = keys.activePatientSharesByExpiry(hospitalId);
  return {
    IndexName: partition.index,
    KeyConditionExpression: '#pk = :pk AND #sk < :bound',
    ExpressionAttributeNames: { '#pk': partition.pkName, '#sk': partition.skName },
    ExpressionAttributeValues: { ':pk': partition.pk, ':bound': expiredBound(now) },
  };
}

/**
 * Shares over the single table (docs/domain.md#shares): a team share is three items written and deleted in one
 * transaction (the share under its dataset, the recipient's grant, the source team's listing); a patient share one item
 * found by its token hash on gsi3; sessions and rate counters in partitions of their own, expiring by TTL.
 */
export function createShareStore(table: Table): ShareStore {
  const { doc } = table;
  const recipientOf = (s: TeamShareRecord) => ({ type: s.recipientType, id: s.recipientId });
  const now = () => Math.floor(Date.now() / 1000);
  const live = (item: Record<string, unknown>) =>
    typeof item[TTL_ATTRIBUTE] !== 'number' || (item[TTL_ATTRIBUTE] as number) > now();
  const strip = <T>(item: Record<string, unknown>): T => {
    const { [TTL_ATTRIBUTE]: _ttl, ...rest } = withoutKeys(item);
    return rest as T;
  };

  /** The items of a team share, written or deleted in one transaction. */
  async function writeAll(items: Record<string, unknown>[]): Promise<void> {
    await doc.send(new TransactWriteCommand({ TransactItems: items as never }));
  }
  const TableName = () => table.tableName;
  const otherKeys = (share: TeamShareRecord) => [
    keys.teamShare(share.hospitalId, share.datasetId, share.id),
    ...(share.sourceTeamId
      ? [keys.teamShareFrom(share.hospitalId, share.sourceTeamId, share.createdAt, share.id)]
      : []),
  ];

  return {
    async putTeamShare(share) {
      try {
        await writeAll([
          {
            Put: {
              TableName: TableName(),
              Item: {
                ...keys.shareGrant(share.hospitalId, recipientOf(share), share.datasetId),
                entity: 'shareGrant',
                ...share,
              },
              ConditionExpression: 'attribute_not_exists(#pk)',
              ExpressionAttributeNames: { '#pk': P.pk },
            },
          },
          ...otherKeys(share).map((key) => ({
            Put: { TableName: TableName(), Item: { ...key, entity: 'teamShare', ...share } },
          })),
        ]);
      } catch (error) {
        if (isConditionFailure(error)) throw new ConflictError();
        throw error;
      }
    },
    async getTeamShare(hospitalId, datasetId, shareId) {
      const { Item } = await doc.send(
        new GetCommand({
          TableName: table.tableName,
          Key: keys.teamShare(hospitalId, datasetId, shareId),
          ConsistentRead: true,
        }),
      );
      return Item ? strip<TeamShareRecord>(Item) : undefined;
    },
    async listTeamSharesOfDataset(hospitalId, datasetId) {
      const items = await queryAll(table, hospitalPk(hospitalId), keys.teamSharePrefix(datasetId));
      return items.map((i) => strip<TeamShareRecord>(i));
    },
    async listTeamSharesFromTeam(hospitalId, teamId) {
      const items = await queryAll(table, hospitalPk(hospitalId), keys.teamShareFromPrefix(teamId), {
        ScanIndexForward: false,
      });
      return items.map((i) => strip<TeamShareRecord>(i));
    },
    async deleteTeamShare(share) {
      await writeAll([
        {
          Delete: {
            TableName: TableName(),
            Key: keys.shareGrant(share.hospitalId, recipientOf(share), share.datasetId),
          },
        },
        ...otherKeys(share).map((Key) => ({ Delete: { TableName: TableName(), Key } })),
      ]);
    },
    async findGrant(hospitalId, recipient, datasetId) {
      const { Item } = await doc.send(
        new GetCommand({
          TableName: table.tableName,
          Key: keys.shareGrant(hospitalId, recipient, datasetId),
          ConsistentRead: true,
        }),
      );
      return Item ? strip<TeamShareRecord>(Item) : undefined;
    },
    async listReceived(hospitalId, recipient) {
      const items = await queryAll(table, hospitalPk(hospitalId), keys.shareGrantPrefix(recipient), {
        ConsistentRead: true,
      });
      return items.map((i) => strip<TeamShareRecord>(i));
    },

    async putApproval(approval) {
      await doc.send(
        new PutCommand({
          TableName: table.tableName,
          Item: { ...keys.shareApproval(approval.hospitalId, approval.id), entity: 'shareApproval', ...approval },
        }),
      );
    },
    async getApproval(hospitalId, shareId) {
      const { Item } = await doc.send(
        new GetCommand({
          TableName: table.tableName,
          Key: keys.shareApproval(hospitalId, shareId),
          ConsistentRead: true,
        }),
      );
      return Item ? strip<ShareApprovalRecord>(Item) : undefined;
    },
    async listApprovals(hospitalId) {
      const items = await queryAll(table, hospitalPk(hospitalId), keys.shareApprovalPrefix(), { ConsistentRead: true });
      return items.map((i) => strip<ShareApprovalRecord>(i));
    },
    async takeApproval(approval) {
      try {
        await doc.send(
          new DeleteCommand({
            TableName: table.tableName,
            Key: keys.shareApproval(approval.hospitalId, approval.id),
            ConditionExpression: 'attribute_exists(#pk)',
            ExpressionAttributeNames: { '#pk': P.pk },
          }),
        );
      } catch (error) {
        if (isConditionFailure(error)) throw new ConflictError();
        throw error;
      }
    },

    async putPatientShare(share) {
      await doc.send(
        new PutCommand({
          TableName: table.tableName,
          Item: {
            ...keys.patientShare(share.hospitalId, share.datasetId, share.id),
            ...keys.patientShareByTokenHash(share.tokenHash),
            ...(share.status === 'ACTIVE' ? keys.activePatientShareByExpiry(share) : {}),
            entity: 'patientShare',
            ...share,
          },
          ConditionExpression: 'attribute_not_exists(#pk)',
          ExpressionAttributeNames: { '#pk': P.pk },
        }),
      );
    },
    async getPatientShare(hospitalId, datasetId, shareId) {
      const { Item } = await doc.send(
        new GetCommand({
          TableName: table.tableName,
          Key: keys.patientShare(hospitalId, datasetId, shareId),
          ConsistentRead: true,
        }),
      );
      return Item ? strip<PatientShareRecord>(Item) : undefined;
    },
    async listPatientShares(hospitalId, datasetId) {
      const items = await queryAll(table, hospitalPk(hospitalId), keys.patientSharePrefix(datasetId), {
        ConsistentRead: true,
      });
      return items.map((i) => strip<PatientShareRecord>(i));
    },
    async listHospitalPatientShares(hospitalId) {
      const items = await queryAll(table, hospitalPk(hospitalId), keys.patientShareHospitalPrefix);
      return items.map((i) => strip<PatientShareRecord>(i));
    },
    async countActivePastExpiry(hospitalId, now) {
      // Select COUNT: DynamoDB returns the number of matching index entries, never the items.
      return countAll(table, activePastExpiry(hospitalId, now));
    },
    async listActivePastExpiry(hospitalId, now, { limit, startKey }) {
      const page = await doc.send(
        new QueryCommand({
          ...activePastExpiry(hospitalId, now),
          TableName: table.tableName,
          Limit: limit,
          ExclusiveStartKey: startKey,
        }),
      );
      return {
        items: (page.Items ?? []).map((i) => strip<PatientShareRecord>(i)),
        ...(page.LastEvaluatedKey ? { lastKey: page.LastEvaluatedKey as Record<string, string> } : {}),
      };
    },
    async findPatientShareByTokenHash(tokenHash) {
      const key = keys.patientShareByTokenHash(tokenHash);
      const { Items } = await doc.send(
        new QueryCommand({
          TableName: table.tableName,
          IndexName: G3.index,
          KeyConditionExpression: '#pk = :pk AND #sk = :sk',
          ExpressionAttributeNames: { '#pk': G3.pk, '#sk': G3.sk },
          ExpressionAttributeValues: { ':pk': key[G3.pk], ':sk': key[G3.sk] },
          Limit: 1,
        }),
      );
      const found = Items?.[0];
      if (!found) return undefined;
      // The index is eventually consistent: the share itself is read from the table.
      const share = strip<PatientShareRecord>(found);
      const { Item } = await doc.send(
        new GetCommand({
          TableName: table.tableName,
          Key: keys.patientShare(share.hospitalId, share.datasetId, share.id),
          ConsistentRead: true,
        }),
      );
      return Item ? strip<PatientShareRecord>(Item) : undefined;
    },
    async updatePatientShare(share, fields, expectedVersion) {
      const expression = updateExpression({
        ...fields,
        ...byExpiryIndex(share, fields),
        version: expectedVersion + 1,
      });
      try {
        const { Attributes } = await doc.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: keys.patientShare(share.hospitalId, share.datasetId, share.id),
            ...expression,
            ConditionExpression: 'attribute_exists(#pk) AND #version = :expectedVersion',
            ExpressionAttributeNames: { ...expression.ExpressionAttributeNames, '#pk': P.pk, '#version': 'version' },
            ExpressionAttributeValues: { ...expression.ExpressionAttributeValues, ':expectedVersion': expectedVersion },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return strip<PatientShareRecord>(Attributes ?? {});
      } catch (error) {
        if (isConditionFailure(error)) throw new ConflictError();
        throw error;
      }
    },

    async putSession(session) {
      await doc.send(
        new PutCommand({
          TableName: table.tableName,
          Item: {
            ...keys.patientSession(session.sessionHash),
            entity: 'patientSession',
            ...session,
            [TTL_ATTRIBUTE]: epoch(session.expiresAt),
          },
        }),
      );
    },
    async getSession(sessionHash) {
      const { Item } = await doc.send(
        new GetCommand({ TableName: table.tableName, Key: keys.patientSession(sessionHash), ConsistentRead: true }),
      );
      return Item && live(Item) ? strip<PatientSessionRecord>(Item) : undefined;
    },

    async addAccessEvent(event) {
      await doc.send(
        new PutCommand({
          TableName: table.tableName,
          Item: {
            ...keys.shareAccessEvent(event.hospitalId, event.shareId, event.at, event.id),
            entity: 'shareAccessEvent',
            ...event,
            [TTL_ATTRIBUTE]: epoch(event.at) + ACCESS_EVENT_TTL_SECONDS,
          },
        }),
      );
    },
    async listAccessEvents(hospitalId, shareId) {
      const items = await queryAll(table, hospitalPk(hospitalId), keys.shareAccessEventPrefix(shareId));
      return items.filter(live).map((i) => strip<ShareAccessRecord>(i));
    },

    async hit(key, windowSeconds, at) {
      const window = Math.floor(epoch(at) / windowSeconds);
      const { Attributes } = await doc.send(
        new UpdateCommand({
          TableName: table.tableName,
          Key: keys.rateCounter(key, window),
          UpdateExpression: 'ADD #count :one SET #ttl = :ttl',
          ExpressionAttributeNames: { '#count': 'count', '#ttl': TTL_ATTRIBUTE },
          ExpressionAttributeValues: { ':one': 1, ':ttl': (window + 2) * windowSeconds },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Number(Attributes?.count ?? 1);
    },
  };
}
