import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClientHook } from '#functions/adapters/aws-clients.ts';
import { InvitationListSchema } from '#shared/schemas/api/invitations.ts';
import { ComplianceSchema, ReportsSchema } from '#shared/schemas/api/oversight.ts';
import {
  DEFAULT_SCALE_SHAPE,
  DEMO_TEAM,
  seedDatasets,
  seedInvitations,
  seedPatientShares,
  seedUsers,
  type ScaleShape,
} from '#tests/helpers/hospital-scale.ts';
import { createReadMeter } from '#tests/helpers/read-meter.ts';
import { startHarness, type Harness } from './datasets-harness.ts';

/**
 * Routes that once walked every dataset (and every user and patient share) of the hospital read the same few items
 * however many it holds (docs/capacity.md#what-was-measured-and-what-was-not): a hospital of 1,000, then 2,000 datasets
 * with 2 series each is written straight to the table with its report items (tests/helpers/hospital-scale.ts), and a
 * meter on every DynamoDB client counts the items DynamoDB evaluated for each request.
 */
const ADMIN = 'admin@northside.demo.local';
const LEAD = 'lead@northside.demo.local';
const DATASETS = 2_000;
const SHARES = 40;
/** The hospital grown for the second compliance read: staff and patient shares, never read by it. */
const MORE_USERS = 300;
const MORE_SHARES = 400;
const shape: ScaleShape = { ...DEFAULT_SCALE_SHAPE, users: 0, teams: 20, patientShares: SHARES, seriesPerDataset: 2 };

const meter = createReadMeter();
let h: Harness;

beforeAll(async () => {
  registerClientHook((client) => meter.attach(client));
  h = await startHarness();
  await seedDatasets(h.table, shape, 0, DATASETS / 2);
  await seedPatientShares(h.table, shape);
}, 180_000);

afterAll(async () => {
  await h?.stop();
});

async function read(path: string, as = ADMIN, query?: Record<string, string>) {
  meter.reset();
  const response = await h.call('GET', path, { as, ...(query ? { query } : {}) });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { body: response.body, read: meter.reset() };
}

/**
 * The reports and team analytics, each from its range's report items (docs/domain.md#report-counters): at most
 * `months` month items, and a few more (the caller, the team, its members, the hospital's team names).
 */
const COUNTED_ROUTES: { name: string; path: string; as: string; query: Record<string, string>; months: number }[] = [
  // The hospital's month is three items (its counts, its creators, its teams).
  { name: 'reports, 3 months', path: '/api/reports', as: ADMIN, query: { months: '3' }, months: 9 },
  { name: 'reports, 12 months', path: '/api/reports', as: ADMIN, query: { months: '12' }, months: 36 },
  { name: "reports, the lead's team", path: '/api/reports', as: LEAD, query: { months: '12' }, months: 12 },
  { name: 'team analytics, 30 days', path: `/api/teams/${DEMO_TEAM}/analytics`, as: LEAD, query: {}, months: 2 },
  {
    name: 'team analytics, year',
    path: `/api/teams/${DEMO_TEAM}/analytics`,
    as: LEAD,
    query: { period: 'LAST_YEAR' },
    months: 13,
  },
];
const BESIDE_THE_MONTHS = 8;

describe('a hospital growing from 1,000 to 2,000 datasets', () => {
  it('answers the reports and team analytics from its months, not its datasets, at both sizes', async () => {
    // Arrange: each route at 1,000 datasets
    const at = async () => {
      const out: Record<string, { items: number; studies: number }> = {};
      for (const route of COUNTED_ROUTES) {
        const { body, read: count } = await read(route.path, route.as, route.query);
        out[route.name] = { items: count.itemsRead, studies: Number(body.totals?.studies ?? body.totalDatasets) };
      }
      return out;
    };
    const small = await at();

    // Act: the hospital doubles
    await seedDatasets(h.table, shape, DATASETS / 2, DATASETS);
    const large = await at();

    // Assert: about twice the studies, never more items than the range's months and a few more. The hospital holds a
    // study in every month at both sizes, so its reports read exactly the same items; a team's month without a study
    // has no item, so a sparse team reads fewer (docs/capacity.md#what-was-measured-and-what-was-not).
    for (const route of COUNTED_ROUTES) {
      const [before, after] = [small[route.name]!, large[route.name]!];
      expect(after.studies, route.name).toBeGreaterThan(before.studies);
      expect(after.items, route.name).toBeLessThanOrEqual(route.months + BESIDE_THE_MONTHS);
      expect(before.items, route.name).toBeLessThanOrEqual(after.items);
      if (route.as === ADMIN) expect(after.items, route.name).toBe(before.items);
    }
  });
});

describe('a hospital of 2,000 datasets and 4,000 series', () => {
  it("answers the compliance center from the hospital's counters: the same items read at 40 and 400 shares, and with 300 more staff", async () => {
    // Arrange: the hospital as seeded (its demo users, 40 shares of which 8 are past their expiry), read once before
    // so both measured reads find the same caches of the function warm.
    await read('/api/compliance');
    const small = await read('/api/compliance');
    const before = ComplianceSchema.parse(small.body);
    const total = (c: typeof before) => Object.values(c.patientShares).reduce((a, b) => a + b, 0);

    // Act: 300 more staff and 360 more shares (none past its expiry), then the same page again.
    await seedUsers(h.table, { ...shape, users: MORE_USERS }, 0, MORE_USERS);
    await seedPatientShares(h.table, { ...shape, patientShares: MORE_SHARES }, { from: SHARES, pastExpiry: false });
    const large = await read('/api/compliance');
    const after = ComplianceSchema.parse(large.body);

    // Assert: every seeded share is counted by its status now: one in five of the first 40 is past its expiry, counted
    // EXPIRED from the by-expiry index, the rest ACTIVE; the staff by status from the hospital's counters.
    expect(before.patientShares.EXPIRED).toBe(SHARES / 5);
    expect(before.patientShares.ACTIVE).toBeGreaterThanOrEqual(SHARES - SHARES / 5);
    expect(total(after) - total(before)).toBe(MORE_SHARES - SHARES);
    expect(after.patientShares.ACTIVE - before.patientShares.ACTIVE).toBe(MORE_SHARES - SHARES);
    expect(after.users.byStatus.ACTIVE - before.users.byStatus.ACTIVE).toBe(MORE_USERS);
    expect(after.users.total - before.users.total).toBe(MORE_USERS);
    // No user or share item is read: the hospital item, a few single items (policies, chain head, sign-in days) and
    // the Count of the ACTIVE shares past their expiry, the same at both sizes.
    expect(large.read.itemsRead).toBe(small.read.itemsRead);
    expect(large.read.queries + large.read.gets).toBe(small.read.queries + small.read.gets);
    expect(small.read.itemsRead).toBeLessThan(SHARES / 5 + 20);
  });

  it("reads a team's report from the team's month items, with the figures the hospital's report gives the team", async () => {
    const hospital = await read('/api/reports');
    const team = await read('/api/reports', LEAD);
    const hospitalReport = ReportsSchema.parse(hospital.body);
    const teamReport = ReportsSchema.parse(team.body);
    // The same studies of the team as the hospital's report counts for it.
    const ofTeam = hospitalReport.byTeam.find((t) => t.teamId === DEMO_TEAM)?.studies ?? 0;
    expect(teamReport.totals.studies).toBe(ofTeam);
    expect(ofTeam).toBeGreaterThan(0);
    // A few items: the team's months, its name and the caller, not one per study.
    expect(team.read.itemsRead).toBeLessThan(20);
    expect(hospital.read.itemsRead).toBeLessThan(40);
  });

  it("pages the hospital's and a team's invitations from their indexes: the same items read at 300 and 3,000 invitations", async () => {
    // Arrange: 300 invitations (a quarter to the lead's team: more than a page of each list), read once before.
    await seedInvitations(h.table, shape, 0, 300);
    await read('/api/invitations');
    const smallHospital = await read('/api/invitations');
    const smallTeam = await read(`/api/teams/${DEMO_TEAM}/invitations`, LEAD);

    // Act: ten times the invitations, then the same first pages again.
    await seedInvitations(h.table, shape, 300, 3_000);
    const largeHospital = await read('/api/invitations');
    const largeTeam = await read(`/api/teams/${DEMO_TEAM}/invitations`, LEAD);

    // Assert: a page of 50, newest first, with counts of all of them from the counters; the items read do not grow.
    const before = InvitationListSchema.parse(smallHospital.body);
    const after = InvitationListSchema.parse(largeHospital.body);
    expect(after.items).toHaveLength(50);
    expect(after.items[0]!.id).toBe('hs-inv-02999');
    expect(after.counts.all - before.counts.all).toBe(2_700);
    expect(after.counts.accepted - before.counts.accepted).toBe(2_700 - 54);
    expect(after.nextToken).not.toBeNull();
    expect(largeHospital.read.itemsRead).toBe(smallHospital.read.itemsRead);
    expect(largeHospital.read.itemsRead).toBeLessThan(50 + 20);
    const team = InvitationListSchema.parse(largeTeam.body);
    expect(team.items.every((i) => i.teamId === DEMO_TEAM)).toBe(true);
    expect(team.counts.all - InvitationListSchema.parse(smallTeam.body).counts.all).toBe(675);
    expect(largeTeam.read.itemsRead).toBe(smallTeam.read.itemsRead);
  });
});
