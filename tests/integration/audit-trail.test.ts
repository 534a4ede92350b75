import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createAuditLog } from '#functions/adapters/dynamo/audit-log.ts';
import { ConflictError } from '#shared/domain/errors.ts';
import { keys } from '#shared/definitions/table/keys.ts';
import { TABLE_KEYS } from '#shared/definitions/table/table.ts';
import { AuditPageSchema, VerifyAuditResponseSchema } from '#shared/schemas/api/audit.ts';
import { ComplianceSchema, ReportsSchema } from '#shared/schemas/api/oversight.ts';
import { newDatasetBody } from '#tests/helpers/datasets.ts';
import { useHarness } from '#tests/helpers/harness.ts';

/**
 * The audit chain on the twin's DynamoDB stand-in (dynalite behind the front end that adds transactions,
 * docs/local-twin.md#transactions), so every append is the cloud's TransactWriteItems: reads and writes through the
 * real handlers append to the hospital's chain, concurrent appends do not fork it, a status change and its event are
 * written together or not at all, and an event edited directly in the table makes verification fail at that event.
 */
const HOSPITAL = 'hosp-northside';
const ADMIN = 'admin@northside.demo.local';
const LEAD = 'lead@northside.demo.local';
const MEMBER = 'member@northside.demo.local';

const h = useHarness();

/** The DynamoDB commands `doc` sends while `work` runs (the document client shares the low-level client's stack). */
async function commandsDuring(doc: DynamoDBDocumentClient, work: () => Promise<unknown>): Promise<string[]> {
  const names: string[] = [];
  const name = `record-commands-${Math.random()}`;
  doc.middlewareStack.add(
    (next, context) => (args) => {
      names.push(context.commandName ?? '');
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    await work();
  } finally {
    doc.middlewareStack.remove(name);
  }
  return names;
}

async function verifyChain(): Promise<void> {
  const verified = await h.call('POST', '/api/audit/verify', { as: ADMIN, body: {} });
  expect(verified.status).toBe(200);
  expect(VerifyAuditResponseSchema.parse(verified.body)).toMatchObject({ verified: true });
  const head = await h.deps.audit.head(HOSPITAL);
  expect(verified.body.checkedEvents).toBe(head!.seq - 1);
}

async function createDataset(): Promise<string> {
  const created = await h.call('POST', '/api/datasets', {
    as: MEMBER,
    body: newDatasetBody(),
  });
  expect(created.status).toBe(201);
  return created.body.id as string;
}

describe('audit trail on the local DynamoDB stand-in', () => {
  it('records dataset views and asset URL issues, searchable by target, actor and action', async () => {
    const id = await createDataset();
    expect((await h.call('GET', `/api/datasets/${id}`, { as: LEAD })).status).toBe(200);
    expect((await h.call('GET', `/api/datasets/${id}/assets`, { as: LEAD })).status).toBe(200);
    expect((await h.call('GET', `/api/datasets/${id}`, { as: 'lead@lakeview.demo.local' })).status).toBe(404);

    const byTarget = await h.call('GET', '/api/audit', { as: ADMIN, query: { target: id } });
    expect(byTarget.status).toBe(200);
    const page = AuditPageSchema.parse(byTarget.body);
    expect(page.items.map((e) => e.action)).toEqual(['ASSET_URLS_ISSUED', 'DATASET_VIEWED', 'DATASET_CREATED']);
    expect(page.items.every((e) => e.outcome === 'SUCCESS' && typeof e.seq === 'number')).toBe(true);

    const byActor = await h.call('GET', '/api/audit', {
      as: ADMIN,
      query: { actor: h.userId(LEAD), action: 'DATASET_VIEWED' },
    });
    expect(byActor.body.items.map((e: { datasetId: string }) => e.datasetId)).toContain(id);

    // The other hospital's refused read is in its own chain, as DENIED.
    const theirs = await h.call('GET', '/api/audit', {
      as: 'superadmin@demo.local',
      query: { hospitalId: 'hosp-lakeview', target: id },
    });
    expect(theirs.body.items.map((e: { outcome: string }) => e.outcome)).toEqual(['DENIED']);
    // A hospital admin naming another hospital gets 404, like any other tenant's id.
    expect((await h.call('GET', '/api/audit', { as: ADMIN, query: { hospitalId: 'hosp-lakeview' } })).status).toBe(404);
  });

  it('records repeated views of one dataset within the read window once, from any container', async () => {
    const id = await createDataset();
    const read = (at: string) =>
      ({
        hospitalId: HOSPITAL,
        actorUserId: 'reader-1',
        datasetId: id,
        action: 'DATASET_VIEWED',
        at,
        windowSeconds: 300,
      }) as const;
    const other = createAuditLog(h.table);
    expect(await h.deps.audit.claimReadWindow(read('2026-11-25T10:00:00.000Z'))).toBe(true);
    // Another container learns of the claim from the refused write, then answers from what it learned.
    expect(await other.claimReadWindow(read('2026-11-25T10:01:00.000Z'))).toBe(false);
    expect(await other.claimReadWindow(read('2026-11-25T10:02:00.000Z'))).toBe(false);
    expect(await h.deps.audit.claimReadWindow(read('2026-11-25T10:04:59.000Z'))).toBe(false);
    // Past the window the next read is recorded again, by whichever container gets it.
    expect(await other.claimReadWindow(read('2026-11-25T10:05:01.000Z'))).toBe(true);
    expect(await h.deps.audit.claimReadWindow(read('2026-11-25T10:06:00.000Z'))).toBe(false);

    for (let i = 0; i < 3; i += 1) expect((await h.call('GET', `/api/datasets/${id}`, { as: LEAD })).status).toBe(200);
    const views = await h.call('GET', '/api/audit', { as: ADMIN, query: { target: id, action: 'DATASET_VIEWED' } });
    expect(AuditPageSchema.parse(views.body).items).toHaveLength(1);
  });

  it('pages with sealed tokens that another filter cannot replay', async () => {
    for (let i = 0; i < 3; i++) await createDataset();
    const first = await h.call('GET', '/api/audit', { as: ADMIN, query: { limit: '2' } });
    expect(first.body.items).toHaveLength(2);
    const token = first.body.nextToken as string;
    const second = await h.call('GET', '/api/audit', { as: ADMIN, query: { limit: '2', nextToken: token } });
    expect(second.status).toBe(200);
    expect(second.body.items[0].at <= first.body.items[1].at).toBe(true);
    const replayed = await h.call('GET', '/api/audit', {
      as: ADMIN,
      query: { limit: '2', action: 'DATASET_CREATED', nextToken: token },
    });
    expect(replayed.status).toBe(400);
  });

  it('keeps one chain under concurrent appends from several writers, each append one transaction', async () => {
    // Four containers' writers (each remembering the head it wrote last), appending at once.
    const writers = [h.deps.audit, ...Array.from({ length: 3 }, () => createAuditLog(h.table))];
    const commands = await commandsDuring(h.table.doc, () =>
      Promise.all(
        writers.flatMap((writer, w) =>
          Array.from({ length: 3 }, (_, i) =>
            writer.record({
              hospitalId: HOSPITAL,
              action: 'TEST_EVENT',
              actorUserId: 'test',
              actorName: 'Test',
              details: { w, i },
            }),
          ),
        ),
      ),
    );
    // Only transactions write the chain: no conditional put of an event on its own, no head moved apart from it.
    const writes = commands.filter((c) => !/^(Get|Query|BatchGet)/.test(c));
    expect(new Set(writes)).toEqual(new Set(['TransactWriteItemsCommand']));
    expect(writes.length).toBeGreaterThanOrEqual(12);
    await verifyChain();
  });

  it('moves a status and appends its event together, or neither: one of concurrent changes wins', async () => {
    const id = await createDataset();
    const { status } = (await h.deps.datasets.get(HOSPITAL, id))!;
    const change = (n: number) =>
      h.deps.datasets.transition(
        HOSPITAL,
        id,
        [status],
        'FAILED',
        { failureReason: `attempt ${n}` },
        {
          hospitalId: HOSPITAL,
          datasetId: id,
          action: 'STATUS_CHANGED',
          actorUserId: 'pipeline',
          actorName: 'Pipeline',
          details: { attempt: n },
        },
      );
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, (_, n) => change(n)));
    const won = outcomes.flatMap((o, n) => (o.status === 'fulfilled' ? [n] : []));
    expect(won).toHaveLength(1);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(ConflictError);
    }
    expect(await h.deps.datasets.get(HOSPITAL, id)).toMatchObject({
      status: 'FAILED',
      failureReason: `attempt ${won[0]}`,
    });
    // The losers' events were cancelled with their updates: the trail has the winner's change only.
    const events = await h.deps.audit.listForDataset(HOSPITAL, id);
    const changes = events.filter((e) => e.action === 'STATUS_CHANGED');
    expect(changes.map((e) => e.details)).toEqual([{ attempt: won[0] }]);
    await verifyChain();
  });

  it('fails a full verification at the event that was edited directly in the table, behind the checkpoint', async () => {
    await createDataset();
    const { Items } = await h.table.doc.send(
      new QueryCommand({
        TableName: h.table.tableName,
        KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
        ExpressionAttributeNames: { '#pk': TABLE_KEYS.primary.pk, '#sk': TABLE_KEYS.primary.sk },
        ExpressionAttributeValues: { ':pk': keys.auditPartition(HOSPITAL), ':prefix': keys.auditSeqPrefix },
      }),
    );
    const victim = Items!.find((item) => item.action === 'DATASET_CREATED')!;
    await h.table.doc.send(
      new UpdateCommand({
        TableName: h.table.tableName,
        Key: { [TABLE_KEYS.primary.pk]: victim.pk, [TABLE_KEYS.primary.sk]: victim.sk },
        UpdateExpression: 'SET actorName = :name',
        ExpressionAttributeValues: { ':name': 'Someone Else' },
      }),
    );

    // An earlier verification left its checkpoint past the victim: the incremental walk starts after it.
    const incremental = await h.call('POST', '/api/audit/verify', { as: ADMIN, body: {} });
    expect(incremental.body).toMatchObject({ verified: true });
    const result = await h.call('POST', '/api/audit/verify', { as: ADMIN, body: { full: true } });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({
      verified: false,
      checkedEvents: victim.seq - 1,
      brokenAt: { seq: victim.seq, eventId: victim.id, reason: 'HASH_MISMATCH' },
    });
    const compliance = ComplianceSchema.parse((await h.call('GET', '/api/compliance', { as: ADMIN })).body);
    expect(compliance.auditChain.lastVerification).toMatchObject({ verified: false, brokenAtSeq: victim.seq });
  });

  it('exports CSV and computes compliance and report figures from the data', async () => {
    const raw = await h.call('GET', '/api/audit/export.csv', { as: ADMIN, query: { action: 'DATASET_CREATED' } });
    expect(raw.status).toBe(200);
    const lines = (raw.body as string).trim().split('\r\n');
    expect(lines[0]).toBe('Time,Action,Outcome,Actor,Actor ID,Dataset,Target user,Details,Sequence,Hash');
    expect(lines.slice(1).every((line) => line.includes(',DATASET_CREATED,'))).toBe(true);

    const compliance = ComplianceSchema.parse((await h.call('GET', '/api/compliance', { as: ADMIN })).body);
    expect(compliance.deidentification.datasets).toBeGreaterThanOrEqual(5);
    expect(compliance.users.total).toBeGreaterThan(0);
    // Read through the share store's and the settings' adapters: the seeded hospital's toggles are those of its policy.
    expect(Object.values(compliance.patientShares).every((n) => n >= 0)).toBe(true);
    expect(Object.keys(compliance.hipaa.toggles).sort()).toEqual(
      ['anonymizeByDefault', 'hashIds', 'regenerateUIDs', 'removePrivateTags'].sort(),
    );
    const reports = await h.call('GET', '/api/reports', { as: ADMIN, query: { months: '6' } });
    expect(reports.status).toBe(200);
    const parsed = ReportsSchema.parse(reports.body);
    expect(parsed.perMonth).toHaveLength(6);
    expect(parsed.totals.studies).toBeGreaterThanOrEqual(5);
    expect((await h.call('GET', '/api/reports', { as: ADMIN, query: { months: '5' } })).status).toBe(400);
  });
});
