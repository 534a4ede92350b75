import { describe, expect, it } from 'vitest';
import { createDataset } from '#shared/domain/datasets/create-dataset.ts';
import { listNotifications, markNotificationsRead } from '#shared/domain/notifications/notifications.ts';
import { completeDataset } from '#shared/domain/pipeline/complete-dataset.ts';
import { recordFailure } from '#shared/domain/pipeline/record-failure.ts';
import { caller, NEW_DATASET, ports } from '#tests/unit/domain/fakes.ts';

const pipelineDeps = (p: ReturnType<typeof ports>) => ({ ...p, pseudonymSecret: async () => 'secret' });

describe('notifications', () => {
  it('tells the owner once when their dataset completes, and when it fails, without patient data', async () => {
    // Prepare
    const p = ports();
    const member = caller('TEAM_MEMBER');
    const done = await createDataset(NEW_DATASET, member, p);
    await p.datasets.update('h1', done.id, { status: 'PROCESSING' }, ['CREATED']);
    const failed = await createDataset(NEW_DATASET, member, p);
    await p.datasets.update('h1', failed.id, { status: 'PROCESSING' }, ['CREATED']);

    // Act
    await completeDataset({ hospitalId: 'h1', datasetId: done.id, runId: 'r1' }, pipelineDeps(p));
    await completeDataset({ hospitalId: 'h1', datasetId: done.id, runId: 'r1' }, pipelineDeps(p));
    await recordFailure({ hospitalId: 'h1', datasetId: failed.id, runId: 'r2' }, pipelineDeps(p));

    // Assess
    const list = await listNotifications(member, p);
    expect(list.unreadCount).toBe(2);
    expect(list.items.map((n) => [n.type, n.href])).toEqual(
      expect.arrayContaining([
        ['DATASET_COMPLETE', `/datasets/${done.id}`],
        ['DATASET_FAILED', `/datasets/${failed.id}`],
      ]),
    );
    expect(JSON.stringify(list)).not.toContain(NEW_DATASET.studyDescription);
    expect((await listNotifications(caller('TEAM_LEAD'), p)).items).toEqual([]);
  });

  it('keeps the 50 newest, counts unread among them, and marks read only the caller’s own', async () => {
    // Prepare
    const p = ports();
    const member = caller('TEAM_MEMBER');
    for (let i = 0; i < 55; i++)
      await p.notifications.add({
        id: `n${i}`,
        hospitalId: 'h1',
        userId: member.userId,
        type: 'DATASET_COMPLETE',
        title: 'Dataset processing complete',
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
        read: false,
      });

    // Act
    const list = await listNotifications(member, p);
    const afterOne = await markNotificationsRead({ ids: ['n54', 'not-mine'] }, member, p);
    const afterAll = await markNotificationsRead({}, member, p);

    // Assess
    expect(list.items).toHaveLength(50);
    expect(list.items[0]!.id).toBe('n54');
    expect(list.unreadCount).toBe(50);
    expect(afterOne.unreadCount).toBe(49);
    expect(afterAll.unreadCount).toBe(0);
  });
});
