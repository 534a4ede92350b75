import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '#shared/definitions/table/keys.ts';
import type { DatasetStatus } from '#shared/vocabulary/datasets.ts';
import { bulkDatasetItem, SCALE_STATUSES } from '#tests/helpers/datasets.ts';
import { bulkPut } from '#tests/helpers/harness.ts';
import { startHarness, type Harness } from './datasets-harness.ts';

/**
 * GET /api/dashboard over a hospital of 10,000 datasets: every role's figures come from counters on the hospital,
 * team and summary items, so the items read stay few and the same however many datasets there are
 * (docs/domain.md#counters). Items are counted from what DynamoDB returns to the client.
 */
const HOSPITAL = 'hosp-northside';
const TEAM = 'team-northside-neuroradiology';
const OTHER_TEAM = 'team-northside-stroke';
const TOTAL = 10_000;
const STATUSES = SCALE_STATUSES;
const ACTORS = {
  SUPER_ADMIN: 'superadmin@demo.local',
  HOSPITAL_ADMIN: 'admin@northside.demo.local',
  TEAM_LEAD: 'lead@northside.demo.local',
  TEAM_MEMBER: 'member@northside.demo.local',
  GUEST: 'guest@northside.demo.local',
} as const;

let h: Harness;
let itemsRead = 0;
let requests = 0;

beforeAll(async () => {
  h = await startHarness();
  const items = Array.from({ length: TOTAL }, (_, i) => bulkDatasetItem(i, [TEAM, OTHER_TEAM]));
  await bulkPut(h.table, items);
  // The counters the writes would have moved (the bulk put above bypasses the domain).
  const count = (status: DatasetStatus, team?: string) =>
    Array.from({ length: TOTAL }, (_, i) => i).filter(
      (i) => STATUSES[i % STATUSES.length] === status && (!team || (i % 2 === 0 ? TEAM : OTHER_TEAM) === team),
    ).length;
  for (const [key, team] of [
    [keys.hospital(HOSPITAL), undefined],
    [keys.team(HOSPITAL, TEAM), TEAM],
  ] as const) {
    await h.table.doc.send(
      new UpdateCommand({
        TableName: h.table.tableName,
        Key: key,
        UpdateExpression:
          'SET datasetCount = :d, completedCount = :c, failedCount = :f, processingCount = :p, patientCount = :d',
        ExpressionAttributeValues: {
          ':d': team ? TOTAL / 2 : TOTAL,
          ':c': count('COMPLETE', team),
          ':f': count('FAILED', team),
          ':p': count('PROCESSING', team),
        },
      }),
    );
  }
  // Count what DynamoDB hands back for every query from here on.
  h.table.doc.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const output = result.output as { Items?: unknown[]; Item?: unknown; Responses?: Record<string, unknown[]> };
      if (context.commandName === 'QueryCommand' || context.commandName === 'ScanCommand') {
        requests += 1;
        itemsRead += (output.Items ?? []).length;
      } else if (context.commandName === 'GetCommand') {
        requests += 1;
        itemsRead += output.Item ? 1 : 0;
      } else if (context.commandName === 'BatchGetCommand') {
        requests += 1;
        itemsRead += Object.values(output.Responses ?? {}).reduce((n, items) => n + items.length, 0);
      }
      return result;
    },
    { step: 'initialize', name: 'countItemsRead' },
  );
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

async function dashboard(as: string) {
  requests = 0;
  itemsRead = 0;
  const response = await h.call('GET', '/api/dashboard', { as });
  expect(response.status).toBe(200);
  return { body: response.body, requests, itemsRead };
}

describe('dashboards over 10,000 datasets in one hospital', () => {
  it('reads a small, fixed number of items for every role', async () => {
    for (const [role, email] of Object.entries(ACTORS)) {
      const read = await dashboard(email);
      expect(read.body.role).toBe(role);
      // Counters, the first page of hospitals or members, a few activity events and at most 12 pipeline datasets.
      expect(read.itemsRead, role).toBeLessThanOrEqual(150);
      expect(read.requests, role).toBeLessThanOrEqual(24);
    }
  });

  it("shows the hospital admin the hospital's counters", async () => {
    const { body } = await dashboard(ACTORS.HOSPITAL_ADMIN);
    expect(body.stats.map((s: { label: string }) => s.label)).toEqual([
      'Hospital Users',
      'Patients Analyzed',
      'Storage Used',
    ]);
    expect(body.pipeline).toMatchObject({ total: TOTAL, completed: 6000, failed: 2000, processing: 2000, queued: 0 });
    expect(body.stats[1].value).toBe(TOTAL);
  });

  it("shows the team lead the team's counters, up to 3 current jobs and how many more", async () => {
    const { body, itemsRead: read } = await dashboard(ACTORS.TEAM_LEAD);
    expect(body.stats.map((s: { label: string }) => s.label)).toEqual([
      'Team Members',
      'Active Datasets',
      'Patients Analyzed',
      'Team Storage',
    ]);
    expect(body.stats[3].subtitle).toMatch(/% of allocation used$/);
    expect(body.pipeline.total).toBe(TOTAL / 2);
    // Each active status is read through the team's index, a bounded few items each: up to 3 are shown.
    expect(body.currentJobs.length).toBeGreaterThan(0);
    expect(body.currentJobs.length).toBeLessThanOrEqual(3);
    expect(body.currentJobs.every((j: { status: string }) => j.status === 'PROCESSING')).toBe(true);
    expect(body.moreJobs).toBe(body.pipeline.processing - body.currentJobs.length);
    expect(read).toBeLessThanOrEqual(150);
  });
});
