import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '#shared/definitions/table/keys.ts';
import { batchPut } from '#functions/adapters/dynamo/expressions.ts';
import { userIndexAttributes } from '#functions/adapters/dynamo/organisation.ts';
import { bulkInvitationRows, memberRecord } from '#tests/helpers/fixtures.ts';
import { startHarness, type Harness } from './datasets-harness.ts';

/**
 * Long work as jobs (docs/jobs.md) through the real handlers: bulk invitations and a hospital's deactivation answer
 * 202 with a job at once, the job runs after the answer, and its progress and per-item results are read back.
 */
const ADMIN = 'admin@northside.demo.local';
const SUPER = 'superadmin@demo.local';
const OTHER_LEAD = 'lead@lakeview.demo.local';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

/** Every result of a job, page by page. */
async function allResults(as: string, jobId: string) {
  const items: { seq: number; subject: string; outcome: string; reason: string | null }[] = [];
  let nextToken: string | undefined;
  do {
    const page = await h.call('GET', `/api/jobs/${jobId}/results`, {
      as,
      query: { limit: '200', ...(nextToken ? { nextToken } : {}) },
    });
    expect(page.status).toBe(200);
    items.push(...page.body.items);
    nextToken = page.body.nextToken ?? undefined;
  } while (nextToken);
  return items;
}

describe('jobs', () => {
  it('answers 500 bulk invitations with 202 at once and finishes with a result per row, a row already invited refused', async () => {
    // Arrange
    const hospitalId = h.user(ADMIN).hospitalId;
    const rows = bulkInvitationRows(500, 'bulk.northside.test');
    const earlier = await h.call('POST', '/api/invitations', {
      as: ADMIN,
      body: { fullName: rows[41]!.fullName, email: rows[41]!.email, role: 'guest' },
    });
    expect(earlier.status).toBe(201);
    const before = (await h.deps.invitations.tally(hospitalId, undefined, new Date().toISOString())).all;

    // Act
    const started = performance.now();
    const accepted = await h.call('POST', '/api/invitations/bulk', {
      as: ADMIN,
      body: { mode: 'basic', invitations: rows },
    });
    const answeredMs = performance.now() - started;
    const right = await h.call('GET', `/api/jobs/${accepted.body.jobId}`, { as: ADMIN });
    await h.settleJobs();
    const done = await h.call('GET', `/api/jobs/${accepted.body.jobId}`, { as: ADMIN });
    const results = await allResults(ADMIN, accepted.body.jobId);

    // Assert
    expect(accepted.status).toBe(202);
    expect(accepted.body.job).toMatchObject({ kind: 'BULK_INVITATIONS', status: 'QUEUED', total: 500, processed: 0 });
    expect(answeredMs).toBeLessThan(5_000);
    expect(right.body.status).not.toBe('SUCCEEDED');
    expect(done.body).toMatchObject({ status: 'SUCCEEDED', total: 500, processed: 500, succeeded: 499, failed: 1 });
    expect(results.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
    const created = results.filter((r) => r.outcome === 'SUCCEEDED');
    expect((await h.deps.invitations.tally(hospitalId, undefined, new Date().toISOString())).all - before).toBe(
      created.length,
    );
    expect(results[41]).toMatchObject({
      subject: rows[41]!.email,
      outcome: 'REFUSED',
      reason: 'This email address already has a pending invitation.',
    });
    expect(h.mailbox.filter((m) => m.to.endsWith('@bulk.northside.test'))).toHaveLength(500);
  });

  it('deactivates a 5,000-user hospital as a job while its users are refused from the first request after the 202', async () => {
    // Arrange
    const hospitalId = h.user(OTHER_LEAD).hospitalId;
    const members = Array.from({ length: 5_000 }, (_, i) => memberRecord(hospitalId, i + 1));
    await batchPut(
      h.table,
      members.map((user) => ({
        ...keys.user(hospitalId, user.id),
        ...keys.userByEmail(user.email),
        ...Object.fromEntries(Object.entries(userIndexAttributes(user)).filter(([, v]) => v !== undefined)),
        entity: 'user',
        ...user,
      })),
    );
    const name = (await h.deps.directory.getHospital(hospitalId))!.name;
    expect((await h.call('GET', '/api/me', { as: OTHER_LEAD })).status).toBe(200);
    h.identityCalls.length = 0;

    // Act
    const accepted = await h.call('DELETE', `/api/hospitals/${hospitalId}`, {
      as: SUPER,
      body: { confirmName: name, acknowledgeImpact: true },
    });
    const refused = await h.call('GET', '/api/me', { as: OTHER_LEAD });
    const during = await h.call('GET', `/api/jobs/${accepted.body.jobId}`, { as: SUPER });
    await h.settleJobs();
    const done = await h.call('GET', `/api/jobs/${accepted.body.jobId}`, { as: SUPER });

    // Assert
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({
      id: hospitalId,
      status: 'DEACTIVATED',
      job: { kind: 'HOSPITAL_DEACTIVATION' },
    });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'HOSPITAL_DEACTIVATED']);
    expect(during.body.status).not.toBe('SUCCEEDED');
    expect(done.body).toMatchObject({ status: 'SUCCEEDED', failed: 0 });
    expect(done.body.processed).toBeGreaterThanOrEqual(5_000);
    const disabled = new Set(h.identityCalls.filter((c) => c.startsWith('disable ')));
    for (const user of members.slice(0, 3).concat(members.slice(-3))) expect(disabled).toContain(`disable ${user.id}`);
    expect(disabled.size).toBe(done.body.succeeded);
    const audit = await h.deps.audit.search({ hospitalId, action: 'HOSPITAL_DEACTIVATED', limit: 5 });
    expect(audit.items[0]?.details).toMatchObject({
      jobId: accepted.body.jobId,
      identitiesDisabled: done.body.succeeded,
    });
  }, 120_000);
});
