import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResearchDataset, startHarness, type Harness } from './datasets-harness.ts';

/**
 * GET /api/teams/{teamId}/analytics (docs/screens.md#teams-page): the team's datasets of the period counted from the
 * datasets themselves, every day of the period in the timeline, over the four periods.
 */
let h: Harness;
let teamId: string;

beforeAll(async () => {
  h = await startHarness();
  const me = await h.call('GET', '/api/me', { as: 'lead@northside.demo.local' });
  teamId = me.body.user.teamId as string;
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

describe('team analytics', () => {
  it("counts the datasets the team's members created in the period, by type, owner and day", async () => {
    // Prepare
    const before = await h.call('GET', `/api/teams/${teamId}/analytics`, { as: 'lead@northside.demo.local' });
    await createResearchDataset(h, 'member@northside.demo.local', 'Analytics study one');
    await createResearchDataset(h, 'member@northside.demo.local', 'Analytics study two');
    await createResearchDataset(h, 'lead@northside.demo.local', 'Analytics study three');

    // Act
    const after = await h.call('GET', `/api/teams/${teamId}/analytics`, { as: 'lead@northside.demo.local' });
    const week = await h.call('GET', `/api/teams/${teamId}/analytics`, {
      as: 'admin@northside.demo.local',
      query: { period: 'LAST_7_DAYS' },
    });
    const year = await h.call('GET', `/api/teams/${teamId}/analytics`, {
      as: 'lead@northside.demo.local',
      query: { period: 'LAST_YEAR' },
    });
    const unknown = await h.call('GET', `/api/teams/${teamId}/analytics`, {
      as: 'lead@northside.demo.local',
      query: { period: 'LAST_DECADE' },
    });

    // Assess
    expect(before.status).toBe(200);
    expect(after.body.period).toBe('LAST_30_DAYS');
    expect(after.body.totalDatasets).toBe(before.body.totalDatasets + 3);
    expect(after.body.datasetsByType.RESEARCH).toBe(before.body.datasetsByType.RESEARCH + 3);
    expect(after.body.timeline).toHaveLength(30);
    const today = after.body.timeline.at(-1);
    expect(today.datasets).toBeGreaterThanOrEqual(3);
    const total = after.body.memberActivity.reduce((n: number, m: { datasets: number }) => n + m.datasets, 0);
    expect(total).toBe(after.body.totalDatasets);
    expect(after.body.truncated).toBe(false);
    expect(week.status).toBe(200);
    expect(week.body.timeline).toHaveLength(7);
    expect(week.body.totalDatasets).toBeGreaterThanOrEqual(3);
    expect(year.body.timeline.length).toBeGreaterThanOrEqual(12);
    expect(year.body.timeline.at(-1).bucket).toMatch(/^\d{4}-\d{2}$/);
    expect(unknown.status).toBe(400);
  });
});
