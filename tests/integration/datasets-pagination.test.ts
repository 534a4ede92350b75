import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkDatasetItem } from '#tests/helpers/datasets.ts';
import { bulkPut } from '#tests/helpers/harness.ts';
import { startHarness, type Harness } from './datasets-harness.ts';

/**
 * A hospital with 10,000 datasets: the first page and a page deep into the list read the same small number of
 * items (counted from what DynamoDB returns to the client), so list cost does not grow with the hospital.
 */
const TEAM = 'team-northside-neuroradiology';
const TOTAL = 10_000;
const ADMIN = 'admin@northside.demo.local';
const LEAD = 'lead@northside.demo.local';

let h: Harness;
let itemsRead = 0;
let queries = 0;

beforeAll(async () => {
  h = await startHarness();
  const items = Array.from({ length: TOTAL }, (_, i) => bulkDatasetItem(i, [TEAM, 'team-northside-stroke']));
  await bulkPut(h.table, items);
  // Count what DynamoDB hands back for every query from here on.
  h.table.doc.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (context.commandName === 'QueryCommand') {
        queries += 1;
        itemsRead += ((result.output as { Items?: unknown[] }).Items ?? []).length;
      }
      return result;
    },
    { step: 'initialize', name: 'countItemsRead' },
  );
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

async function page(as: string, query: Record<string, string>) {
  queries = 0;
  itemsRead = 0;
  const response = await h.call('GET', '/api/datasets', { as, query });
  expect(response.status).toBe(200);
  return { body: response.body, queries, itemsRead };
}

describe('dataset list over 10,000 datasets in one hospital', () => {
  it('reads the same small number of items for the first page and for a page deep into the list', async () => {
    // Act
    const first = await page(ADMIN, { limit: '12' });
    let token = first.body.nextToken as string;
    let deep = first;
    for (let i = 0; i < 50; i++) {
      deep = await page(ADMIN, { limit: '12', nextToken: token });
      token = deep.body.nextToken;
    }

    // Assess
    expect(first.body.items).toHaveLength(12);
    expect(first.body.items[0].id).toBe('bulk-09999');
    expect(deep.body.items[0].id).toBe(`bulk-${String(TOTAL - 1 - 50 * 12).padStart(5, '0')}`);
    expect(first.itemsRead).toBe(12);
    expect(deep.itemsRead).toBe(12);
    expect(first.queries).toBe(1);
    expect(deep.queries).toBe(1);
  });

  it('pages a team lead through their team only, and a status filter through the status index, with bounded reads', async () => {
    const team = await page(LEAD, { limit: '48' });
    expect(team.body.items.every((d: { teamId: string }) => d.teamId === TEAM)).toBe(true);
    expect(team.itemsRead).toBe(48);
    const failed = await page(ADMIN, { limit: '24', status: 'FAILED' });
    expect(failed.body.items).toHaveLength(24);
    expect(failed.body.items.every((d: { status: string }) => d.status === 'FAILED')).toBe(true);
    expect(failed.itemsRead).toBe(24);
    const second = await page(ADMIN, { limit: '24', status: 'FAILED', nextToken: failed.body.nextToken });
    expect(second.itemsRead).toBe(24);
    expect(second.body.items[0].id < failed.body.items.at(-1).id).toBe(true);
  });

  it('caps the reads of a rare search and returns a token to go on', async () => {
    const search = await page(ADMIN, { limit: '6', search: 'glioma' });
    expect(search.queries).toBeLessThanOrEqual(4);
    expect(search.itemsRead).toBeLessThanOrEqual(4 * 6);
    expect(search.body.nextToken).toEqual(expect.any(String));
  });

  it("finds a patient's datasets by MRN through the alias, although no MRN is stored", async () => {
    const body = {
      mrn: 'MRN-SEARCH-77',
      studyType: 'FOLLOW_UP',
      studyDescription: 'Follow-up',
      clinicalIndication: 'Control',
      orderingPhysician: 'Dr. D',
      department: 'Radiology',
      patientConsent: true,
      hipaaDisclosure: true,
    };
    const created = await h.call('POST', '/api/datasets', { as: LEAD, body });
    const found = await page(ADMIN, { limit: '6', search: 'MRN-SEARCH-77' });
    expect(found.body.items.map((d: { id: string }) => d.id)).toEqual([created.body.id]);
    expect(
      (await page(ADMIN, { limit: '6', search: 'follow-up' })).body.items.map((d: { id: string }) => d.id),
    ).toContain(created.body.id);
  });

  it('rejects a continuation token replayed by another hospital or with another filter', async () => {
    const first = await page(ADMIN, { limit: '6' });
    const otherHospital = await h.call('GET', '/api/datasets', {
      as: 'admin@lakeview.demo.local',
      query: { limit: '6', nextToken: first.body.nextToken },
    });
    expect(otherHospital.status).toBe(400);
    expect(otherHospital.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Invalid input' });
    const otherFilter = await h.call('GET', '/api/datasets', {
      as: ADMIN,
      query: { limit: '6', status: 'FAILED', nextToken: first.body.nextToken },
    });
    expect(otherFilter.status).toBe(400);
    const tampered = first.body.nextToken.slice(0, -2) + (first.body.nextToken.endsWith('A') ? 'BB' : 'AA');
    expect(
      (await h.call('GET', '/api/datasets', { as: ADMIN, query: { limit: '6', nextToken: tampered } })).status,
    ).toBe(400);
  });

  it('accepts only the page sizes 6, 12, 24 and 48', async () => {
    expect((await h.call('GET', '/api/datasets', { as: ADMIN, query: { limit: '10' } })).status).toBe(400);
    expect((await h.call('GET', '/api/datasets', { as: ADMIN, query: { limit: '48' } })).body.items).toHaveLength(48);
  });
});
