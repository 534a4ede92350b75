import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClientHook } from '#functions/adapters/aws-clients.ts';
import { ComplianceSchema } from '#shared/schemas/api/oversight.ts';
import {
  DEFAULT_SCALE_SHAPE,
  seedDatasets,
  seedPatientShares,
  type ScaleShape,
} from '#tests/helpers/hospital-scale.ts';
import { createReadMeter } from '#tests/helpers/read-meter.ts';
import { startHarness, type Harness } from './datasets-harness.ts';

/**
 * Routes that once walked every dataset of the hospital read the same few items however many it holds
 * (docs/capacity.md#what-was-measured): a hospital of 3,000 datasets with 3 series each is written straight to the
 * table (tests/helpers/hospital-scale.ts), and a meter on every DynamoDB client counts the items DynamoDB evaluated
 * for each request.
 */
const ADMIN = 'admin@northside.demo.local';
const DATASETS = 3_000;
const SHARES = 40;
const shape: ScaleShape = { ...DEFAULT_SCALE_SHAPE, users: 0, teams: 20, patientShares: SHARES, seriesPerDataset: 3 };

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

async function read(path: string) {
  meter.reset();
  const response = await h.call('GET', path, { as: ADMIN });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { body: response.body, read: meter.reset() };
}

describe('a hospital of 3,000 datasets and 9,000 series', () => {
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
});
