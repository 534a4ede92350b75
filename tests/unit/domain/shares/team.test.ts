import { describe, expect, it } from 'vitest';
import { caller } from '#tests/unit/domain/fakes.ts';
import { shareWorld } from './fixtures.ts';
import {
  createTeamShares,
  listDatasetTeamShares,
  listSharedWithMe,
  listTeamDicomShares,
  revokeTeamShare,
} from '#shared/domain/shares/team-shares.ts';
import { loadReadableDataset } from '#shared/domain/datasets/load-dataset.ts';
import { updateDataset } from '#shared/domain/datasets/update-dataset.ts';

describe('team shares', () => {
  it('lets the owner share with another team: its members read the dataset, marked, until revoked', async () => {
    // Prepare
    const w = shareWorld();
    const reader = caller('TEAM_LEAD', { userId: 'lead-t2', teamId: 't2' });
    const read = () => loadReadableDataset(reader, 'ds1', w.deps);
    await expect(read()).rejects.toMatchObject({ code: 'DATASET_NOT_FOUND' });
    // Act
    const { items } = await createTeamShares('ds1', { teamId: 't2', permissions: ['view'] }, w.member, w.deps);
    // Assess
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ recipientType: 'TEAM', recipientId: 't2', recipientName: 'Stroke' });
    const seen = await listSharedWithMe(reader, w.deps);
    expect(seen.items.map((d) => [d.id, d.sharedWithYou])).toEqual([['ds1', ['view']]]);
    expect((await listTeamDicomShares('t1', w.member, w.deps)).items).toHaveLength(1);
    expect(w.deps.audit.events.some((e) => e.action === 'TEAM_SHARE_CREATED')).toBe(true);

    expect((await read()).sharedWithYou).toEqual(['view']);

    await revokeTeamShare('ds1', items[0]!.id, w.member, w.deps);
    await expect(read()).rejects.toMatchObject({ code: 'DATASET_NOT_FOUND' });
    expect((await listSharedWithMe(reader, w.deps)).items).toEqual([]);
    expect((await listDatasetTeamShares('ds1', w.member, w.deps)).items).toEqual([]);
  });

  it('shares with chosen members of the team only, once each', async () => {
    const w = shareWorld();
    await expect(
      createTeamShares('ds1', { memberIds: ['stranger'], permissions: ['view'] }, w.member, w.deps),
    ).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
    await createTeamShares('ds1', { memberIds: ['mate'], permissions: ['view', 'download'] }, w.member, w.deps);
    await expect(
      createTeamShares('ds1', { memberIds: ['mate'], permissions: ['view'] }, w.member, w.deps),
    ).rejects.toMatchObject({ code: 'SHARE_EXISTS' });
  });

  it('never lets a recipient change the dataset, and refuses sharing to a guest or another hospital', async () => {
    const w = shareWorld();
    await createTeamShares('ds1', { teamId: 't2', permissions: ['view'] }, w.member, w.deps);
    const reader = caller('TEAM_LEAD', { userId: 'lead-t2', teamId: 't2' });
    await expect(updateDataset('ds1', { studyDescription: 'x' }, reader, w.deps as never)).rejects.toMatchObject({
      code: 'DATASET_NOT_FOUND',
    });
    await expect(
      createTeamShares('ds1', { teamId: 't2', permissions: ['view'] }, caller('GUEST'), w.deps),
    ).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    await expect(
      createTeamShares(
        'ds1',
        { teamId: 't2', permissions: ['view'] },
        caller('TEAM_LEAD', { hospitalId: 'h2' }),
        w.deps,
      ),
    ).rejects.toMatchObject({ code: 'DATASET_NOT_FOUND' });
  });
});
