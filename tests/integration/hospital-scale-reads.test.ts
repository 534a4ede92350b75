import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClientHook } from '#functions/adapters/aws-clients.ts';
import { ComplianceSchema, ReportsSchema } from '#shared/schemas/api/oversight.ts';
import {
  DEFAULT_SCALE_SHAPE,
  DEMO_TEAM,
  seedDatasets,
  seedPatientShares,
  type ScaleShape,
} from '#tests/helpers/hospital-scale.ts';
import { createReadMeter } from '#tests/helpers/read-meter.ts';
import { startHarness, type Harness } from './datasets-harness.ts';

/**
 * Routes that once walked every dataset of the hospital read the same few items however many it holds
 * (docs/capacity.md#what-was-measured-and-what-was-not): a hospital of 2,000 datasets with 2 series each is written
 * straight to the table (tests/helpers/hospital-scale.ts), and a meter on every DynamoDB client counts the items
 * DynamoDB evaluated for each request.
 */
const ADMIN = 'admin@northside.demo.local';
const LEAD = 'lead@northside.demo.local';
const DATASETS = 2_000;
const SHARES = 40;
const shape: ScaleShape = { ...DEFAULT_SCALE_SHAPE, users: 0, teams: 20, patientShares: SHARES, seriesPerDataset: 2 };

const meter = createReadMeter();
let h: Harness;

beforeAll(async () => {
  registerClientHook((client) => meter.attach(client));
  h = await startHarness();
  await seedDatasets(h.table, shape, 0, DATASETS);
  await seedPatientShares(h.table, shape);
}, 180_000);

afterAll(async () => {
  await h?.stop();
});

async function read(path: string, as = ADMIN) {
  meter.reset();
  const response = await h.call('GET', path, { as });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { body: response.body, read: meter.reset() };
}

describe('a hospital of 2,000 datasets and 4,000 series', () => {
  it("answers the compliance center from the hospital's counters, its users and its shares: no dataset or series is read", async () => {
    const { body, read: count } = await read('/api/compliance');
    const compliance = ComplianceSchema.parse(body);
    // Every seeded share is counted, by its status now, from one read of the hospital's shares.
    expect(Object.values(compliance.patientShares).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(SHARES);
    // The demo hospital's users, its shares, a few single items (hospital, policies, chain head, sign-in days):
    // far below one dataset per item, let alone their series.
    expect(count.itemsRead).toBeLessThan(SHARES + 100);
    expect(count.queries + count.gets).toBeLessThan(25);
  });

  it("reads a team's report from the team's index over the range, not the hospital's datasets of the range", async () => {
    const hospital = await read('/api/reports');
    const team = await read('/api/reports', LEAD);
    const hospitalReport = ReportsSchema.parse(hospital.body);
    const teamReport = ReportsSchema.parse(team.body);
    // The same studies of the team as the hospital's report counts for it.
    const ofTeam = hospitalReport.byTeam.find((t) => t.teamId === DEMO_TEAM)?.studies ?? 0;
    expect(teamReport.totals.studies).toBe(ofTeam);
    expect(ofTeam).toBeGreaterThan(0);
    // The team holds a tenth of the datasets: its report reads its own and a few items more, not the hospital's range.
    expect(team.read.itemsRead).toBeLessThan(ofTeam + 20);
    expect(team.read.itemsRead * 5).toBeLessThan(hospital.read.itemsRead);
  });
});
