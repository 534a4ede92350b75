import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAuditLog } from '#functions/adapters/dynamo/audit-log.ts';
import { createDatasetRepository } from '#functions/adapters/dynamo/datasets-repository.ts';
import { keys } from '#shared/definitions/table/keys.ts';
import { TABLE_KEYS } from '#shared/definitions/table/table.ts';
import { AuditPageSchema, VerifyAuditResponseSchema } from '#shared/schemas/api/audit.ts';
import { createInProcessAuditStream } from '#tests/helpers/audit-stream.ts';
import { newDatasetBody } from '#tests/helpers/datasets.ts';
import { useHarness } from '#tests/helpers/harness.ts';

/**
 * The audit trail off the request path (docs/domain.md#how-an-event-travels) through the real handlers on the twin's
 * DynamoDB stand-in: audited reads write one pending event each and answer without the chain, even while the chainer
 * is held back; once it runs, every event is in the chain exactly once and the chain verifies.
 */
const HOSPITAL = 'hosp-northside';
const ADMIN = 'admin@northside.demo.local';
const LEAD = 'lead@northside.demo.local';
const MEMBER = 'member@northside.demo.local';
const DATASETS = 25;

const h = useHarness();
let stream: ReturnType<typeof createInProcessAuditStream>;
const datasetIds: string[] = [];

async function partitionItems(pk: string, prefix?: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await h.table.doc.send(
      new QueryCommand({
        TableName: h.table.tableName,
        KeyConditionExpression: prefix ? '#pk = :pk AND begins_with(#sk, :prefix)' : '#pk = :pk',
        ExpressionAttributeNames: { '#pk': TABLE_KEYS.primary.pk, ...(prefix ? { '#sk': TABLE_KEYS.primary.sk } : {}) },
        ExpressionAttributeValues: { ':pk': pk, ...(prefix ? { ':prefix': prefix } : {}) },
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...((page.Items ?? []) as Record<string, unknown>[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

const pendingItems = () => partitionItems(keys.auditPendingPartition(HOSPITAL));
const chainedItems = () => partitionItems(keys.auditPartition(HOSPITAL), keys.auditSeqPrefix);

beforeAll(async () => {
  // The deployed writer: audited actions write pending events, an in-process stream chains them behind.
  stream = createInProcessAuditStream(h.table);
  Object.assign(h.deps, {
    audit: createAuditLog(h.table, undefined, stream.writer),
    datasets: createDatasetRepository(h.table, stream.writer),
  });
  for (let i = 0; i < DATASETS; i++) {
    const created = await h.call('POST', '/api/datasets', { as: MEMBER, body: newDatasetBody() });
    expect(created.status).toBe(201);
    datasetIds.push(created.body.id as string);
  }
  await stream.settled();
}, 60_000);

describe('audited reads with the chain built behind them', () => {
  it('answers every concurrent audited read while the chainer is held back, then chains each event once', async () => {
    // Arrange: the chain caught up, then the stream stops handing events to the chainer.
    const headBefore = (await h.deps.audit.head(HOSPITAL))!;
    expect(await pendingItems()).toHaveLength(0);
    stream.pause();
    const reads = datasetIds.flatMap((id) => [
      { as: LEAD, path: `/api/datasets/${id}` },
      { as: MEMBER, path: `/api/datasets/${id}` },
      { as: LEAD, path: `/api/datasets/${id}/assets` },
      { as: MEMBER, path: `/api/datasets/${id}/assets` },
    ]);

    // Act: every read at once; none can wait on the chain, which does not move.
    const answers = await Promise.all(reads.map((r) => h.call('GET', r.path, { as: r.as })));
    const headWhilePaused = (await h.deps.audit.head(HOSPITAL))!;
    const pending = await pendingItems();
    const listed = AuditPageSchema.parse(
      (await h.call('GET', '/api/audit', { as: ADMIN, query: { action: 'DATASET_VIEWED', limit: '100' } })).body,
    );
    stream.resume();
    await stream.settled();
    const pendingAfter = await pendingItems();
    const chained = await chainedItems();
    const verified = VerifyAuditResponseSchema.parse(
      (await h.call('POST', '/api/audit/verify', { as: ADMIN, body: { full: true } })).body,
    );

    // Assert
    expect(answers.map((a) => a.status)).toEqual(reads.map(() => 200));
    expect(headWhilePaused.seq).toBe(headBefore.seq);
    expect(pending).toHaveLength(reads.length);
    // The log lists the events still pending (no position yet) on its first page.
    expect(listed.items.filter((e) => e.seq === undefined).length).toBe(2 * DATASETS);
    expect(pendingAfter).toHaveLength(0);
    const chainedReads = chained.filter(
      (e) =>
        (e.action === 'DATASET_VIEWED' || e.action === 'ASSET_URLS_ISSUED') &&
        datasetIds.includes(e.datasetId as string),
    );
    expect(chainedReads).toHaveLength(reads.length);
    expect(new Set(chainedReads.map((e) => e.id)).size).toBe(reads.length);
    expect(new Set(chainedReads.map((e) => e.id))).toEqual(new Set(pending.map((e) => e.id)));
    expect(verified).toMatchObject({ verified: true, checkedEvents: chained.length });
    // Many events per head move: the 100 reads took at most a few transactions.
    expect(stream.batches()).toBeLessThan(chained.length / 2);
  });

  it('verifies incrementally after a checkpoint, draining what is pending first', async () => {
    // Arrange: a full verification leaves a checkpoint; then a read whose event is still pending.
    await h.call('POST', '/api/audit/verify', { as: ADMIN, body: {} });
    const checkpoint = (await h.deps.audit.head(HOSPITAL))!.lastVerification!;
    await stream.settled();
    stream.pause();
    await h.call('GET', `/api/datasets/${datasetIds[0]}`, { as: ADMIN });
    expect(await pendingItems()).toHaveLength(1);

    // Act
    const result = VerifyAuditResponseSchema.parse(
      (await h.call('POST', '/api/audit/verify', { as: ADMIN, body: {} })).body,
    );
    stream.resume();
    await stream.settled();

    // Assert: the verification's own event was chained behind it; the drain chained the read before the walk.
    const head = (await h.deps.audit.head(HOSPITAL))!;
    expect(result).toMatchObject({ verified: true, checkedEvents: checkpoint.verifiedSeq! + 2 });
    expect(head.lastVerification).toMatchObject({ verifiedSeq: checkpoint.verifiedSeq! + 2 });
    expect(await pendingItems()).toHaveLength(0);
  });
});
