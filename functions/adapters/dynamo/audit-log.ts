import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { auditListIndexes, keys, withoutKeys } from '#shared/definitions/table/keys.ts';
import { TABLE_KEYS, TTL_ATTRIBUTE } from '#shared/definitions/table/table.ts';
import { chainNext, EMPTY_HEAD, type ChainedAuditEvent, type ChainHead } from '#shared/domain/audit/chain.ts';
import type {
  AuditChainHead,
  AuditChainVerification,
  AuditEntry,
  AuditEvent,
  AuditLog,
  AuditQuery,
} from '#shared/domain/ports.ts';
import { TransientError } from '#shared/domain/errors.ts';
import { auditItem, type AuditAlongsideUpdate } from './audit-items.ts';
import { headMove, readPending } from './audit-pending.ts';
import type { Table } from './client.ts';
import { cancellationCodes, isConditionFailure, queryAll, queryPartitionAll } from './expressions.ts';

const P = TABLE_KEYS.primary;

/** A lost race for the chain's next position is retried this often before the append gives up (TransientError). */
export const MAX_APPEND_ATTEMPTS = 12;

/** Pending events a listing shows at most (the oldest, where more wait: the chain is behind). */
const PENDING_LISTED = 100;

/** With filters (action, period on an actor or target index) a page may need a few reads to fill; never more. */
const MAX_READS_PER_PAGE = 8;

export { auditItem, type AuditAlongsideUpdate };

function eventOf(item: Record<string, unknown>): AuditEvent {
  return withoutKeys(item) as AuditEvent;
}

function headOf(item: Record<string, unknown> | undefined): AuditChainHead | undefined {
  if (!item) return undefined;
  // A head that holds only a verification (nothing appended yet) is the empty chain's.
  return {
    seq: typeof item.seq === 'number' ? item.seq : EMPTY_HEAD.seq,
    hash: typeof item.hash === 'string' ? item.hash : EMPTY_HEAD.hash,
    ...(item.lastVerification ? { lastVerification: item.lastVerification as AuditChainHead['lastVerification'] } : {}),
  };
}

/** The hospital's chained events in position order (after `afterSeq`, when given), read consistently. */
function chainQuery(table: Table, hospitalId: string, afterSeq?: number) {
  const values: Record<string, unknown> = { ':pk': keys.auditPartition(hospitalId) };
  let condition = '#pk = :pk AND begins_with(#sk, :prefix)';
  if (afterSeq) {
    // Positions are zero-padded, so the keys after `afterSeq` are a range ('~' sorts after every digit).
    condition = '#pk = :pk AND #sk BETWEEN :from AND :to';
    values[':from'] = keys.auditSeqKey(afterSeq + 1);
    values[':to'] = `${keys.auditSeqPrefix}~`;
  } else {
    values[':prefix'] = keys.auditSeqPrefix;
  }
  return {
    TableName: table.tableName,
    KeyConditionExpression: condition,
    ExpressionAttributeNames: { '#pk': P.pk, '#sk': P.sk },
    ExpressionAttributeValues: values,
    ConsistentRead: true,
  };
}

/**
 * Appends audit events to the hospital's chain (docs/domain.md#audit-trail). One transaction moves the head item from
 * the previous hash to the new one (condition: the head still holds the previous hash) and puts the event at its
 * position (condition: the position is free), together with the caller's own write when there is one (a dataset
 * status change). Two writers that read the same head cannot both win: the loser re-reads and retries.
 */
export function createAuditChainWriter(table: Table, now: () => string = () => new Date().toISOString()) {
  const { doc } = table;
  /**
   * The head this writer last wrote or read, per hospital: the next append tries the position after it without reading
   * the head again. The put's and the head's conditions still decide; a head another writer moved meanwhile fails them,
   * and the retry reads it afresh.
   */
  const lastHead = new Map<string, ChainHead>();
  const knownHead = async (hospitalId: string, attempt: number): Promise<ChainHead> => {
    const remembered = attempt === 0 ? lastHead.get(hospitalId) : undefined;
    return remembered ?? readHead(hospitalId);
  };
  const remember = (hospitalId: string, head: ChainHead) => {
    if (lastHead.size >= 1_000) lastHead.clear();
    lastHead.set(hospitalId, head);
  };

  async function readHead(hospitalId: string): Promise<ChainHead> {
    const { Item } = await doc.send(
      new GetCommand({ TableName: table.tableName, Key: keys.auditHead(hospitalId), ConsistentRead: true }),
    );
    return headOf(Item) ?? EMPTY_HEAD;
  }

  /** The event's item, written only where no event stands at its position yet. */
  function newEventPut(event: ChainedAuditEvent) {
    return {
      TableName: table.tableName,
      Item: auditItem(event),
      ConditionExpression: 'attribute_not_exists(#pk)',
      ExpressionAttributeNames: { '#pk': P.pk },
    };
  }

  /**
   * Appends `entry`; with `alongside`, that update is written in the same transaction (it is index 0 of the
   * cancellation reasons, so its own condition failing is told apart from a lost race for the head).
   */
  async function append(entry: AuditEntry, alongside?: AuditAlongsideUpdate): Promise<void> {
    for (let attempt = 0; attempt < MAX_APPEND_ATTEMPTS; attempt++) {
      if (attempt > 0) await backOff(attempt);
      const head = await knownHead(entry.hospitalId, attempt);
      const event = await chainNext(head, entry, randomUUID(), now());
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              ...(alongside ? [{ Update: alongside as never }] : []),
              { Update: headMove(table, entry.hospitalId, head, event) },
              { Put: newEventPut(event) },
            ],
          }),
        );
        remember(entry.hospitalId, { seq: event.seq, hash: event.hash });
        return;
      } catch (error) {
        lastHead.delete(entry.hospitalId);
        const codes = cancellationCodes(error);
        const ownFailed = alongside && codes?.[0] === 'ConditionalCheckFailed';
        if (ownFailed || !isRace(error)) throw error;
      }
    }
    throw new TransientError('audit chain append lost every race');
  }

  /** Keeps the latest verification's outcome on the head item (the chain's own fields are left alone). */
  async function recordVerification(hospitalId: string, verification: AuditChainVerification): Promise<void> {
    await doc.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: keys.auditHead(hospitalId),
        UpdateExpression: 'SET #v = :v, #entity = :entity',
        ExpressionAttributeNames: { '#v': 'lastVerification', '#entity': 'entity' },
        ExpressionAttributeValues: { ':v': verification, ':entity': 'auditHead' },
      }),
    );
  }

  return { append, recordVerification };
}

/** Writers that lost a race wait a random few milliseconds, longer each time, so they do not collide again at once. */
function backOff(attempt: number): Promise<void> {
  const ms = Math.random() * Math.min(200, 5 * 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A cancelled transaction because the head moved, the position was taken or another transaction held the items. */
function isRace(error: unknown): boolean {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return false;
  return (cancellationCodes(error) ?? []).some((c) => c === 'ConditionalCheckFailed' || c === 'TransactionConflict');
}

/**
 * What writes the chain: the audit appender function itself (this module's writer) or, in every other function, a
 * client that invokes it (functions/adapters/lambda/audit-appender.ts), since only the appender may write there.
 */
export type AuditChainWriter = {
  /** Appends `entry`; with `alongside`, that update goes in the same transaction (see createAuditChainWriter). */
  append(entry: AuditEntry, alongside?: AuditAlongsideUpdate): Promise<void>;
  /** Where events are chained behind the requests: chains what is pending for the hospital now. */
  settle?(hospitalId: string): Promise<void>;
  recordVerification(hospitalId: string, verification: AuditChainVerification): Promise<void>;
};

/** Audit events: append-only, chained per hospital, in the hospital's audit partition (they outlive a deleted dataset). */
export function createAuditLog(
  table: Table,
  now: () => string = () => new Date().toISOString(),
  writer: AuditChainWriter = createAuditChainWriter(table, now),
): AuditLog {
  const { doc } = table;
  /**
   * The hospital's events still waiting for the chain (docs/domain.md#how-an-event-travels): a few at most, as the
   * appender chains them within seconds; one read of their partition, without the pending item's own fields.
   */
  const pendingEvents = async (hospitalId: string): Promise<AuditEvent[]> =>
    (await readPending(table, hospitalId, PENDING_LISTED)).map(({ pendingKey: _, ...event }) => event);
  /** Read windows known to be claimed, until when (ms); bounded, as a container lives for many users. */
  const claimedUntil = new Map<string, number>();
  const rememberClaim = (key: string, until: number) => {
    if (claimedUntil.size >= 10_000) claimedUntil.clear();
    claimedUntil.set(key, until);
  };

  async function queryIndex(
    index: { index: string; pkName: string; skName: string; pk: string },
    query: AuditQuery,
    filters: string[],
    names: Record<string, string>,
    values: Record<string, unknown>,
  ) {
    const keyNames: Record<string, string> = { '#ipk': index.pkName };
    if (query.from || query.to) keyNames['#isk'] = index.skName;
    const keyValues: Record<string, unknown> = { ':ipk': index.pk };
    let keyCondition = '#ipk = :ipk';
    // Sort keys are `<ISO time>#<id>`: the period is a range on them ('~' sorts after every id character).
    if (query.from && query.to) {
      keyCondition += ' AND #isk BETWEEN :from AND :to';
      keyValues[':from'] = query.from;
      keyValues[':to'] = `${query.to}~`;
    } else if (query.from) {
      keyCondition += ' AND #isk >= :from';
      keyValues[':from'] = query.from;
    } else if (query.to) {
      keyCondition += ' AND #isk <= :to';
      keyValues[':to'] = `${query.to}~`;
    }
    const items: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined = query.startKey;
    for (let reads = 0; reads < MAX_READS_PER_PAGE && items.length < query.limit; reads++) {
      const input: QueryCommandInput = {
        TableName: table.tableName,
        IndexName: index.index,
        KeyConditionExpression: keyCondition,
        ExpressionAttributeNames: { ...keyNames, ...names },
        ExpressionAttributeValues: { ...keyValues, ...values },
        ScanIndexForward: false,
        Limit: query.limit - items.length,
        ExclusiveStartKey: startKey,
        ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
      };
      const page = await doc.send(new QueryCommand(input));
      items.push(...((page.Items ?? []) as Record<string, unknown>[]));
      startKey = page.LastEvaluatedKey;
      if (!startKey) break;
    }
    return { items, lastKey: startKey as Record<string, string> | undefined };
  }

  return {
    async record(entry) {
      await writer.append(entry);
    },
    async listForDataset(hospitalId, datasetId) {
      // Pending events are read first: one chained meanwhile is then found among the chained, never in neither.
      const pending = await pendingEvents(hospitalId);
      const items = await queryPartitionAll(table, auditListIndexes.byTarget(hospitalId, datasetId));
      // Events written before the chain were keyed under the dataset in the audit partition (`DS#<id>#...`).
      const legacy = await queryAll(table, keys.auditPartition(hospitalId), `DS#${datasetId}#`);
      return withPending([...legacy, ...items].map(eventOf), pending)
        .filter((e) => e.datasetId === datasetId)
        .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
    },
    async search(query) {
      const filters: string[] = [];
      const names: Record<string, string> = {};
      const values: Record<string, unknown> = {};
      // The most selective index: a target, else an actor, else the hospital's whole log; the rest are filters.
      const index = query.targetId
        ? auditListIndexes.byTarget(query.hospitalId, query.targetId)
        : query.actorUserId
          ? auditListIndexes.byActor(query.hospitalId, query.actorUserId)
          : auditListIndexes.byTime(query.hospitalId);
      if (query.targetId && query.actorUserId) {
        filters.push('#actor = :actor');
        names['#actor'] = 'actorUserId';
        values[':actor'] = query.actorUserId;
      }
      if (query.action) {
        filters.push('#action = :action');
        names['#action'] = 'action';
        values[':action'] = query.action;
      }
      // The first page also shows the events still waiting for the chain (newest first, as the rest), read before the
      // chained ones: an event chained in between is then found among the chained, never in neither.
      const pending = query.startKey ? [] : await pendingEvents(query.hospitalId);
      const page = await queryIndex(index, query, filters, names, values);
      const chained = page.items.map(eventOf);
      const items = query.startKey
        ? chained
        : withPending(
            chained,
            pending.filter((e) => matchesQuery(e, query)),
          ).sort(newestFirst);
      return { items, ...(page.lastKey ? { lastKey: page.lastKey } : {}) };
    },
    async chainPage(hospitalId, startKey, afterSeq) {
      const page = await doc.send(
        new QueryCommand({ ...chainQuery(table, hospitalId, afterSeq), ExclusiveStartKey: startKey }),
      );
      return {
        items: (page.Items ?? []).map((item) => eventOf(item) as ChainedAuditEvent),
        ...(page.LastEvaluatedKey ? { lastKey: page.LastEvaluatedKey as Record<string, string> } : {}),
      };
    },
    async claimReadWindow(read) {
      const at = Date.parse(read.at);
      const marker = keys.auditReadMarker(read.hospitalId, read.actorUserId, read.datasetId, read.action);
      const memoKey = `${marker.pk}\u0000${marker.sk}`;
      // A window this container saw claimed (by itself or, from a refused claim, by another) is still claimed: markers
      // only ever move forward, so no call is needed to answer "not the first read" (the dataset page polls).
      if (at < (claimedUntil.get(memoKey) ?? 0)) return false;
      try {
        await doc.send(
          new PutCommand({
            TableName: table.tableName,
            Item: {
              ...marker,
              entity: 'auditReadMarker',
              at: read.at,
              [TTL_ATTRIBUTE]: Math.floor(at / 1000) + read.windowSeconds,
            },
            ConditionExpression: 'attribute_not_exists(#pk) OR #at < :cutoff',
            ExpressionAttributeNames: { '#pk': P.pk, '#at': 'at' },
            ExpressionAttributeValues: { ':cutoff': new Date(at - read.windowSeconds * 1000).toISOString() },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        rememberClaim(memoKey, at + read.windowSeconds * 1000);
        return true;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        // The refused claim's marker, where the store returns it (raw attribute values on the exception).
        const stored = (error as { Item?: Record<string, unknown> }).Item?.at as { S?: string } | string | undefined;
        const held = Date.parse((typeof stored === 'string' ? stored : stored?.S) ?? '');
        if (Number.isFinite(held)) rememberClaim(memoKey, held + read.windowSeconds * 1000);
        return false;
      }
    },
    async head(hospitalId) {
      const { Item } = await doc.send(
        new GetCommand({ TableName: table.tableName, Key: keys.auditHead(hospitalId), ConsistentRead: true }),
      );
      return headOf(Item);
    },
    recordVerification: (hospitalId, verification) => writer.recordVerification(hospitalId, verification),
    ...(writer.settle ? { settle: writer.settle } : {}),
  };
}

/** Pending events not already among `chained` (one chained meanwhile is listed once, as chained). */
function withPending(chained: AuditEvent[], pending: AuditEvent[]): AuditEvent[] {
  const ids = new Set(chained.map((e) => e.id));
  return [...chained, ...pending.filter((e) => !ids.has(e.id))];
}

function newestFirst(a: AuditEvent, b: AuditEvent): number {
  return a.at < b.at ? 1 : a.at > b.at ? -1 : b.id.localeCompare(a.id);
}

/** The search's filters on one event, as the index read and its filter expression apply them. */
function matchesQuery(e: AuditEvent, query: AuditQuery): boolean {
  return (
    (!query.actorUserId || e.actorUserId === query.actorUserId) &&
    (!query.targetId || e.datasetId === query.targetId || e.targetUserId === query.targetId) &&
    (!query.action || e.action === query.action) &&
    (!query.from || e.at >= query.from) &&
    (!query.to || e.at <= `${query.to}~`)
  );
}
