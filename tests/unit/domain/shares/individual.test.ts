import { describe, expect, it } from 'vitest';
import { caller } from '#tests/unit/domain/fakes.ts';
import { memoryPageTokens } from '#functions/adapters/memory/index.ts';
import { shareWorld } from './fixtures.ts';
import { createTeamShares, listSharedWithMe, revokeTeamShare } from '#shared/domain/shares/team-shares.ts';
import { loadReadableDataset } from '#shared/domain/datasets/load-dataset.ts';
import { listDatasets } from '#shared/domain/datasets/list-datasets.ts';

const pseudonymizer = { patientAlias: async (h: string, mrn: string) => `PT-${h}-${mrn.length}` };

describe('member shares under an individual data policy (docs/domain.md#teams)', () => {
  it('hides a teammate’s dataset until the owner shares it with them, and again after revoking', async () => {
    // Prepare
    const w = shareWorld();
    const mate = caller('TEAM_MEMBER', { userId: 'mate', teamId: 't1', teamDataPolicy: 'individual' });
    const list = () =>
      listDatasets({ limit: 20 }, mate, { ...w.deps, pageTokens: memoryPageTokens, pseudonymizer }).then((p) =>
        p.items.map((d) => d.id),
      );
    expect(await list()).toEqual([]);
    await expect(loadReadableDataset(mate, 'ds1', w.deps)).rejects.toMatchObject({ code: 'DATASET_NOT_FOUND' });
    // Act
    const { items } = await createTeamShares('ds1', { memberIds: ['mate'], permissions: ['view'] }, w.member, w.deps);
    // Assess
    expect((await loadReadableDataset(mate, 'ds1', w.deps)).sharedWithYou).toEqual(['view']);
    expect((await listSharedWithMe(mate, w.deps)).items.map((d) => [d.id, d.sharedWithYou])).toEqual([
      ['ds1', ['view']],
    ]);
    await revokeTeamShare('ds1', items[0]!.id, w.member, w.deps);
    await expect(loadReadableDataset(mate, 'ds1', w.deps)).rejects.toMatchObject({ code: 'DATASET_NOT_FOUND' });
    expect((await listSharedWithMe(mate, w.deps)).items).toEqual([]);
  });

  it('leaves the owner their datasets and the lead the whole team', async () => {
    const w = shareWorld();
    const owner = { ...w.member, teamDataPolicy: 'individual' as const };
    const lead = caller('TEAM_LEAD', { teamDataPolicy: 'individual' });
    const deps = { ...w.deps, pageTokens: memoryPageTokens, pseudonymizer };
    expect((await listDatasets({ limit: 20 }, owner, deps)).items.map((d) => d.id)).toEqual(['ds1']);
    expect((await listDatasets({ limit: 20 }, lead, deps)).items.map((d) => d.id)).toEqual(['ds1']);
    expect((await loadReadableDataset(lead, 'ds1', w.deps)).sharedWithYou).toBeUndefined();
  });

  it('keeps a shared-policy team as it was: teammates see each other’s datasets, not twice', async () => {
    const w = shareWorld();
    const mate = caller('TEAM_MEMBER', { userId: 'mate', teamId: 't1', teamDataPolicy: 'shared' });
    await createTeamShares('ds1', { memberIds: ['mate'], permissions: ['view'] }, w.member, w.deps);
    expect((await loadReadableDataset(mate, 'ds1', w.deps)).sharedWithYou).toBeUndefined();
    expect((await listSharedWithMe(mate, w.deps)).items).toEqual([]);
  });
});
