import { describe, expect, it } from 'vitest';
import { caller } from '#tests/unit/domain/fakes.ts';
import { shareWorld } from './fixtures.ts';
import { createTeamShares } from '#shared/domain/shares/team-shares.ts';
import { loadReadableDataset } from '#shared/domain/datasets/load-dataset.ts';
import { listAssets } from '#shared/domain/datasets/list-assets.ts';
import { holdsSharePermission, requireSharePermission } from '#shared/domain/auth/caller.ts';

describe('team share permissions (docs/domain.md#share-permissions)', () => {
  const reader = caller('TEAM_LEAD', { userId: 'lead-t2', teamId: 't2' });

  it('gives a view-only share the viewer assets alone: no URL for the report, no export', async () => {
    // Prepare
    const w = shareWorld();
    await createTeamShares('ds1', { teamId: 't2', permissions: ['view'] }, w.member, w.deps);
    // Act
    const { items } = await listAssets('ds1', reader, w.deps);
    const dataset = await loadReadableDataset(reader, 'ds1', w.deps);
    // Assess
    expect(items.find((a) => a.type === 'VOLUME')?.url).toBeDefined();
    expect(items.find((a) => a.type === 'REPORT')?.url).toBeUndefined();
    expect(holdsSharePermission(dataset, 'download')).toBe(false);
    expect(() => requireSharePermission(dataset, 'export')).toThrow(expect.objectContaining({ code: 'ACCESS_DENIED' }));
  });

  it('gives the report with download, and export only with export', async () => {
    const w = shareWorld();
    await createTeamShares('ds1', { teamId: 't2', permissions: ['view', 'download'] }, w.member, w.deps);
    const { items } = await listAssets('ds1', reader, w.deps);
    expect(items.every((a) => a.url)).toBe(true);
    const dataset = await loadReadableDataset(reader, 'ds1', w.deps);
    expect(holdsSharePermission(dataset, 'export')).toBe(false);
  });

  it('adds up a grant to the member and one to their team', async () => {
    const w = shareWorld();
    await createTeamShares('ds1', { teamId: 't2', permissions: ['view', 'export'] }, w.member, w.deps);
    const t2member = caller('TEAM_MEMBER', { userId: 'stranger', teamId: 't2' });
    // A direct grant to a member of another team is stored as the core stores every grant.
    await w.deps.shares.putTeamShare({
      id: 'direct',
      hospitalId: 'h1',
      datasetId: 'ds1',
      sourceTeamId: 't1',
      recipientType: 'USER',
      recipientId: 'stranger',
      recipientName: 'Sam stranger',
      permissions: ['view', 'download'],
      createdByUserId: w.member.userId,
      createdByName: 'Pat',
      createdAt: w.state.now,
    });
    const dataset = await loadReadableDataset(t2member, 'ds1', w.deps);
    expect(dataset.sharedWithYou).toEqual(['view', 'download', 'export']);
  });

  it('leaves the owner and their team every asset', async () => {
    const w = shareWorld();
    const { items } = await listAssets('ds1', w.member, w.deps);
    expect(items.every((a) => a.url)).toBe(true);
    expect(holdsSharePermission(await loadReadableDataset(w.member, 'ds1', w.deps), 'export')).toBe(true);
  });
});
