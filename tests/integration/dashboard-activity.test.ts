import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResearchDataset, startHarness, type Harness } from './datasets-harness.ts';

/**
 * The team lead's dashboard has two activity lists that never repeat each other (docs/screens.md#dashboard): Team
 * Activity is what the team's other members did, Recent Activity the lead's own. The super admin's has the pipeline
 * of every hospital.
 */
let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

describe("the team lead's activity lists", () => {
  it("shows the members' events under Team Activity and the lead's own under Recent Activity", async () => {
    // Prepare: the member and the lead of one team each create a dataset
    const nameOf = async (as: string) => {
      const me = (await h.call('GET', '/api/me', { as })).body as { user: { firstName: string; lastName: string } };
      return `${me.user.firstName} ${me.user.lastName}`;
    };
    const lead = await nameOf('lead@northside.demo.local');
    const member = await nameOf('member@northside.demo.local');
    await createResearchDataset(h, 'member@northside.demo.local', 'Member study');
    await createResearchDataset(h, 'lead@northside.demo.local', 'Lead study');

    // Act
    const response = await h.call('GET', '/api/dashboard', { as: 'lead@northside.demo.local' });

    // Assess
    expect(response.status).toBe(200);
    const team = response.body.teamActivity as { id: string; user: string; action: string }[];
    const recent = response.body.recentActivity as { id: string; user: string; action: string }[];
    expect(team).toContainEqual(expect.objectContaining({ user: member, action: 'DATASET_CREATED' }));
    expect(recent).toContainEqual(expect.objectContaining({ user: lead, action: 'DATASET_CREATED' }));
    expect(recent.every((a) => a.user === lead)).toBe(true);
    expect(team.every((a) => a.user !== lead)).toBe(true);
  });

  it("gives the super admin the pipeline of every hospital, the sum of each hospital's", async () => {
    // Prepare: a dataset in one hospital moves its counters
    await createResearchDataset(h, 'member@northside.demo.local', 'Pipeline study');
    const pipelineOf = async (as: string) => (await h.call('GET', '/api/dashboard', { as })).body.pipeline;
    const hospitals = await Promise.all(
      ['admin@northside.demo.local', 'admin@lakeview.demo.local'].map((as) => pipelineOf(as)),
    );

    // Act
    const system = await pipelineOf('superadmin@demo.local');

    // Assess
    const sum = (key: string) => hospitals.reduce((n, p: Record<string, number>) => n + p[key]!, 0);
    expect(system).toEqual({
      queued: sum('queued'),
      processing: sum('processing'),
      completed: sum('completed'),
      failed: sum('failed'),
      total: sum('total'),
    });
    expect(system.total).toBeGreaterThan(0);
  });
});
