import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '#shared/definitions/table/keys.ts';
import { newDatasetBody } from '#tests/helpers/datasets.ts';
import { useHarness } from '#tests/helpers/harness.ts';
import { runRetention } from './retention-run.ts';

/**
 * Deleting data is deliberate (docs/domain.md#recycle-bin, #legal-hold; docs/roles-and-permissions.md#dataset-management),
 * through the real handlers and the DynamoDB adapters: DELETE_DATA reaches one's own datasets only, a deleted dataset
 * leaves every answer but the hospital admin's bin and comes back on restore, and a legal hold keeps a dataset from
 * deletion by hand and by the retention job.
 */
const ADMIN = 'admin@northside.demo.local';
const LEAD = 'lead@northside.demo.local';
const MEMBER = 'member@northside.demo.local';
const OTHER_ADMIN = 'admin@lakeview.demo.local';

const h = useHarness();

async function created(as: string): Promise<string> {
  const response = await h.call('POST', '/api/datasets', { as, body: newDatasetBody() });
  expect(response.status).toBe(201);
  return response.body.id as string;
}

async function withMemberPermissions(permissions: string[], run: () => Promise<void>): Promise<void> {
  const record = (await h.deps.directory.getUser('hosp-northside', h.userId(MEMBER)))!;
  await h.deps.directory.putUser({ ...record, permissions: permissions as typeof record.permissions });
  try {
    await run();
  } finally {
    await h.deps.directory.putUser(record);
  }
}

const ids = (response: { body: { items: { id: string }[] } }) => response.body.items.map((d) => d.id);

describe('deleting a dataset', () => {
  it("refuses a member with DELETE_DATA a teammate's dataset (403) and lets them delete their own", async () => {
    const leads = await created(LEAD);
    const own = await created(MEMBER);
    await withMemberPermissions(['VIEW_DATASETS', 'UPLOAD_DICOM', 'SHARE_DATA', 'DELETE_DATA'], async () => {
      const refused = await h.call('DELETE', `/api/datasets/${leads}`, { as: MEMBER, body: { reason: 'Mine?' } });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('ACCESS_DENIED');
      expect((await h.call('DELETE', `/api/datasets/${own}`, { as: MEMBER })).status).toBe(204);
    });
    expect((await h.call('GET', `/api/datasets/${leads}`, { as: MEMBER })).status).toBe(200);
    // A lead deletes the team's datasets.
    expect((await h.call('DELETE', `/api/datasets/${leads}`, { as: LEAD, body: { reason: 'Test' } })).status).toBe(204);
  });

  it('moves it to the recycle bin: 404 everywhere but the bin, until a hospital admin restores it', async () => {
    const id = await created(MEMBER);
    const listed = () => h.call('GET', '/api/datasets', { as: ADMIN, query: { limit: '48' } });
    const searched = () => h.call('GET', '/api/datasets', { as: LEAD, query: { limit: '48', search: id } });
    expect(ids(await searched())).toContain(id);
    const share = await h.call('POST', `/api/datasets/${id}/team-shares`, {
      as: ADMIN,
      body: { teamId: 'team-northside-stroke', permissions: ['view'] },
    });
    expect(share.status).toBe(201);

    const deleted = await h.call('DELETE', `/api/datasets/${id}`, { as: LEAD, body: { reason: 'Wrong patient' } });
    expect(deleted.status).toBe(204);

    for (const path of [`/api/datasets/${id}`, `/api/datasets/${id}/series`, `/api/datasets/${id}/assets`])
      expect((await h.call('GET', path, { as: ADMIN })).status).toBe(404);
    expect((await h.call('PATCH', `/api/datasets/${id}`, { as: ADMIN, body: { studyDescription: 'X' } })).status).toBe(
      404,
    );
    expect((await h.call('DELETE', `/api/datasets/${id}`, { as: ADMIN })).status).toBe(404);
    expect(ids(await listed())).not.toContain(id);
    expect(ids(await searched())).not.toContain(id);
    expect((await h.call('GET', `/api/datasets/${id}/team-shares`, { as: ADMIN })).status).toBe(404);

    const bin = await h.call('GET', '/api/datasets/recycle-bin', { as: ADMIN });
    expect(bin.status).toBe(200);
    const entry = bin.body.items.find((d: { id: string }) => d.id === id);
    expect(entry).toMatchObject({ deletionReason: 'Wrong patient', deletedByUserId: h.userId(LEAD) });
    expect(Date.parse(entry.purgeAfter) - Date.parse(entry.deletedAt)).toBe(30 * 86_400_000);
    expect((await h.call('GET', '/api/datasets/recycle-bin', { as: LEAD })).status).toBe(403);
    // Another hospital's admin neither sees it nor restores it.
    const theirs = await h.call('GET', '/api/datasets/recycle-bin', { as: OTHER_ADMIN });
    expect(ids(theirs)).not.toContain(id);
    expect((await h.call('POST', `/api/datasets/${id}/restore`, { as: OTHER_ADMIN })).status).toBe(404);

    const restored = await h.call('POST', `/api/datasets/${id}/restore`, { as: ADMIN });
    expect(restored.status).toBe(200);
    expect(restored.body.id).toBe(id);
    expect((await h.call('GET', `/api/datasets/${id}`, { as: MEMBER })).status).toBe(200);
    expect(ids(await listed())).toContain(id);
    expect(ids(await searched())).toContain(id);
    expect(ids(await h.call('GET', '/api/datasets/recycle-bin', { as: ADMIN }))).not.toContain(id);
    expect((await h.call('POST', `/api/datasets/${id}/restore`, { as: ADMIN })).status).toBe(404);

    const history = await h.deps.audit.listForDataset('hosp-northside', id);
    expect(history.find((e) => e.action === 'DATASET_DELETED')).toMatchObject({
      actorUserId: h.userId(LEAD),
      details: { reason: 'Wrong patient' },
    });
    expect(history.find((e) => e.action === 'DATASET_RESTORED')).toMatchObject({ actorUserId: h.userId(ADMIN) });
  });
});

describe('a legal hold', () => {
  it('blocks deletion by hand and by retention until it is lifted, each change audited', async () => {
    const id = await created(MEMBER);
    const hold = (as: string, body: unknown) => h.call('PUT', `/api/datasets/${id}/legal-hold`, { as, body });
    expect((await hold(MEMBER, { on: true, reason: 'Litigation 42' })).status).toBe(403);
    const placed = await hold(LEAD, { on: true, reason: 'Litigation 42' });
    expect(placed.status).toBe(200);
    expect(placed.body.legalHold).toMatchObject({ reason: 'Litigation 42', byUserId: h.userId(LEAD) });
    expect((await hold(OTHER_ADMIN, { on: false, reason: 'x' })).status).toBe(404);

    const refused = await h.call('DELETE', `/api/datasets/${id}`, { as: ADMIN, body: { reason: 'Cleanup' } });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toEqual({
      code: 'LEGAL_HOLD',
      message: 'This dataset is under legal hold and cannot be deleted.',
    });

    // Long past its retention: the job keeps it while it is held.
    await h.table.doc.send(
      new UpdateCommand({
        TableName: h.table.tableName,
        Key: keys.dataset('hosp-northside', id),
        UpdateExpression: 'SET createdAt = :at',
        ExpressionAttributeValues: { ':at': new Date(Date.now() - 400 * 86_400_000).toISOString() },
      }),
    );
    const kept = await runRetention(h);
    expect(kept.resultOf('hosp-northside', id)).toMatchObject({ outcome: 'SKIPPED', code: 'LEGAL_HOLD' });
    expect((await h.call('GET', `/api/datasets/${id}`, { as: MEMBER })).status).toBe(200);

    const lifted = await hold(ADMIN, { on: false, reason: 'Settled' });
    expect(lifted.status).toBe(200);
    const moved = await runRetention(h);
    expect(moved.resultOf('hosp-northside', id)).toMatchObject({ outcome: 'SUCCEEDED', ref: 'recycle-bin' });
    expect((await h.call('GET', `/api/datasets/${id}`, { as: MEMBER })).status).toBe(404);
    const history = await h.deps.audit.listForDataset('hosp-northside', id);
    expect(history.map((e) => e.action)).toEqual(
      expect.arrayContaining(['LEGAL_HOLD_PLACED', 'LEGAL_HOLD_LIFTED', 'DATASET_RETENTION_EXPIRED']),
    );
  });
});
