import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recountHospital } from '#functions/adapters/dynamo/organisation.ts';
import { keys } from '#shared/definitions/table/keys.ts';
import type { Invitation } from '#shared/schemas/api/invitations.ts';
import { bulkInvitationRows } from '#tests/helpers/fixtures.ts';
import { DEFAULT_SCALE_SHAPE, SCALE_HOSPITAL, seedInvitations } from '#tests/helpers/hospital-scale.ts';
import { startHarness, type Harness } from './datasets-harness.ts';

/**
 * The invitation lists a page at a time (docs/domain.md#invitations): the hospital's and a team's invitations newest
 * first from their indexes, a continuation token sealed to the list, and counts of all of them from the counters.
 */
const ADMIN = 'admin@northside.demo.local';
const LEAD = 'lead@northside.demo.local';
const TEAM = 'team-northside-neuroradiology';
const TEAM_PATH = `/api/teams/${TEAM}/invitations`;

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

/** Every page of a list at `limit` a page (of one status, when given), and the pages' answers. */
async function allPages(path: string, as: string, limit: number, status?: string) {
  const pages: { items: Invitation[]; counts: Record<string, number>; nextToken: string | null }[] = [];
  let nextToken: string | undefined;
  do {
    const page = await h.call('GET', path, {
      as,
      query: { limit: String(limit), ...(status ? { status } : {}), ...(nextToken ? { nextToken } : {}) },
    });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    pages.push(page.body);
    nextToken = page.body.nextToken ?? undefined;
  } while (nextToken);
  return pages;
}

const order = (i: Invitation) => `${i.createdAt}#${i.id}`;

describe('invitation lists a page at a time', () => {
  it('pages the hospital and the team newest first with no duplicates; a team lead sees only the team', async () => {
    // Arrange: five invitations, three of them to the lead's team.
    const rows = bulkInvitationRows(5, 'pages.northside.test');
    const sent: Invitation[] = [];
    for (const [n, row] of rows.entries()) {
      const toTeam = n % 2 === 0;
      const response = await h.call('POST', '/api/invitations', {
        as: ADMIN,
        body: {
          fullName: row.fullName,
          email: row.email,
          role: 'team_member',
          ...(toTeam ? { departmentId: 'dept-northside-radiology', teamId: TEAM } : {}),
        },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      sent.push(response.body);
    }

    // Act
    const hospitalPages = await allPages('/api/invitations', ADMIN, 2);
    const teamPages = await allPages(TEAM_PATH, LEAD, 2);
    const foreignToken = await h.call('GET', TEAM_PATH, {
      as: LEAD,
      query: { limit: '2', nextToken: hospitalPages[0]!.nextToken! },
    });

    // Assert: pages of at most two, every invitation once, newest first; the counts are of all of them.
    const hospital = hospitalPages.flatMap((p) => p.items);
    expect(hospitalPages.every((p) => p.items.length <= 2)).toBe(true);
    expect(new Set(hospital.map((i) => i.id)).size).toBe(hospital.length);
    expect(hospital.map(order)).toEqual(hospital.map(order).sort().reverse());
    expect(hospital.map((i) => i.id)).toEqual(expect.arrayContaining(sent.map((i) => i.id)));
    expect(hospitalPages[0]!.counts.all).toBe(hospital.length);
    const team = teamPages.flatMap((p) => p.items);
    expect(team.every((i) => i.teamId === TEAM)).toBe(true);
    expect(new Set(team.map((i) => i.id)).size).toBe(team.length);
    expect(team.map(order)).toEqual(team.map(order).sort().reverse());
    expect(team.map((i) => i.id)).toEqual(
      expect.arrayContaining(sent.filter((i) => i.teamId === TEAM).map((i) => i.id)),
    );
    expect(teamPages[0]!.counts.all).toBe(team.length);
    // A token is sealed to its list: the hospital's does not continue the team's.
    expect(foreignToken.status).toBe(400);
  });

  it('moves the counts as an invitation is sent and cancelled', async () => {
    // Arrange
    const [row] = bulkInvitationRows(1, 'counts.northside.test');
    const before = (await h.call('GET', TEAM_PATH, { as: LEAD })).body.counts;

    // Act
    const sent = await h.call('POST', TEAM_PATH, { as: LEAD, body: { email: row!.email, role: 'MEMBER' } });
    const afterSend = (await h.call('GET', TEAM_PATH, { as: LEAD })).body.counts;
    const cancelled = await h.call('DELETE', `${TEAM_PATH}/${sent.body.id}`, { as: LEAD });
    const afterCancel = (await h.call('GET', TEAM_PATH, { as: LEAD })).body.counts;

    // Assert
    expect(sent.status).toBe(201);
    expect(cancelled.status).toBe(200);
    expect(afterSend).toMatchObject({ all: before.all + 1, sent: before.sent + 1, pending: before.pending });
    expect(afterCancel).toMatchObject({ all: before.all + 1, sent: before.sent, accepted: before.accepted });
  });

  it('recount gives invitations stored before the index their entries and sets the counters, the same when repeated', async () => {
    // Arrange: three invitations (the first PENDING and the team's), the first stored without its index entries and
    // the hospital's counters written before invitations were counted.
    await seedInvitations(h.table, DEFAULT_SCALE_SHAPE, 5_000, 5_003);
    const old = keys.invitation(SCALE_HOSPITAL, 'hs-inv-05000');
    await h.table.doc.send(
      new UpdateCommand({
        TableName: h.table.tableName,
        Key: old,
        UpdateExpression: `REMOVE ${keys.invitationIndexNames.join(', ')}`,
      }),
    );
    await h.table.doc.send(
      new UpdateCommand({
        TableName: h.table.tableName,
        Key: keys.hospital(SCALE_HOSPITAL),
        UpdateExpression: 'REMOVE invitationCount, acceptedInvitationCount',
      }),
    );

    // Act: twice, as a recount is set, not added.
    await recountHospital(h.table, SCALE_HOSPITAL);
    await recountHospital(h.table, SCALE_HOSPITAL);
    const hospitalPages = await allPages('/api/invitations', ADMIN, 100);
    const teamPages = await allPages(TEAM_PATH, LEAD, 100);
    const { Item } = await h.table.doc.send(new GetCommand({ TableName: h.table.tableName, Key: old }));

    // Assert: the old invitation is listed again, with its by-expiry entry, and the counts are of what is stored.
    const hospital = hospitalPages.flatMap((p) => p.items);
    const team = teamPages.flatMap((p) => p.items);
    expect(hospital.map((i) => i.id)).toContain('hs-inv-05000');
    expect(team.map((i) => i.id)).toContain('hs-inv-05000');
    expect(Item).toMatchObject({ gsi1pk: `H#${SCALE_HOSPITAL}#INVITE`, gsi4pk: `H#${SCALE_HOSPITAL}#INVITEPENDING` });
    expect(hospitalPages[0]!.counts.all).toBe(hospital.length);
    expect(hospitalPages[0]!.counts.accepted).toBe(hospital.filter((i) => i.status === 'ACCEPTED').length);
    expect(teamPages[0]!.counts.all).toBe(team.length);
  });

  it("answers one filter's invitations: sent, accepted, and expired with the pending ones past their expiry", async () => {
    // Arrange: four invitations, the first PENDING and the rest ACCEPTED; the first made to lapse an hour ago.
    await seedInvitations(h.table, DEFAULT_SCALE_SHAPE, 6_000, 6_004);
    const lapsedAt = new Date(Date.now() - 3_600_000).toISOString();
    await h.table.doc.send(
      new UpdateCommand({
        TableName: h.table.tableName,
        Key: keys.invitation(SCALE_HOSPITAL, 'hs-inv-06000'),
        UpdateExpression: 'SET expiresAt = :at, gsi4sk = :sk, gsi5sk = :sk',
        ExpressionAttributeValues: { ':at': lapsedAt, ':sk': `${lapsedAt}#hs-inv-06000` },
      }),
    );

    // Act
    const ofStatus = async (status: string) =>
      (await allPages('/api/invitations', ADMIN, 100, status)).flatMap((p) => p.items);
    const sent = await ofStatus('sent');
    const accepted = await ofStatus('accepted');
    const expired = await ofStatus('expired');
    const all = await allPages('/api/invitations', ADMIN, 100);

    // Assert: each filter holds only its own, and the lapsed one is counted and listed as expired.
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((i) => i.listStatus === 'sent')).toBe(true);
    expect(accepted.map((i) => i.id)).toEqual(expect.arrayContaining(['hs-inv-06001', 'hs-inv-06002', 'hs-inv-06003']));
    expect(accepted.every((i) => i.listStatus === 'accepted')).toBe(true);
    expect(expired.map((i) => i.id)).toEqual(['hs-inv-06000']);
    expect(all[0]!.counts).toMatchObject({ expired: 1, accepted: accepted.length, sent: sent.length });
  });
});
