import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './datasets-harness.ts';

/**
 * The audit export as a job through the real handlers (docs/jobs.md): `POST /api/audit/exports` answers 202 with the
 * job at once, the job writes the CSV after the answer, and its starter follows it to an expiring link; the same
 * filters and roles as `GET /api/audit/export.csv`.
 */
const ADMIN = 'admin@northside.demo.local';
const OTHER_ADMIN = 'admin@lakeview.demo.local';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

describe('the audit export job', () => {
  it('answers 202, writes the CSV of the filtered log and hands its starter the link', async () => {
    // Arrange: the admin's searches of the log are on the trail.
    await h.call('GET', '/api/audit', { as: ADMIN, query: { limit: '5' } });
    const filter = { action: 'AUDIT_CHAIN_VERIFIED' };
    await h.call('POST', '/api/audit/verify', { as: ADMIN, body: {} });
    const small = await h.call('GET', '/api/audit/export.csv', { as: ADMIN, query: filter });

    // Act
    const accepted = await h.call('POST', '/api/audit/exports', { as: ADMIN, body: filter });
    const running = await h.call('GET', `/api/audit/exports/${accepted.body.jobId}`, { as: ADMIN });
    await h.settleJobs();
    const done = await h.call('GET', `/api/audit/exports/${accepted.body.jobId}`, { as: ADMIN });

    // Assert
    expect(accepted.status).toBe(202);
    expect(accepted.body.job).toMatchObject({ kind: 'AUDIT_EXPORT', status: 'QUEUED' });
    expect(running.body.download).toBeNull();
    expect(done.status).toBe(200);
    expect(done.body.job).toMatchObject({ status: 'SUCCEEDED', failed: 0 });
    expect(done.body.download).toMatchObject({ fileName: expect.stringMatching(/^audit-log-.+\.csv$/) });
    const csv = new TextDecoder().decode(
      await h.deps.objects.get('studies', `exports/${h.user(ADMIN).hospitalId}/${accepted.body.jobId}.csv`),
    );
    expect(csv).toBe(small.body);
    expect(csv).toContain('AUDIT_CHAIN_VERIFIED');
  });

  it('refuses roles the CSV route refuses, and hides an export from everyone but its starter', async () => {
    // Arrange
    const accepted = await h.call('POST', '/api/audit/exports', { as: ADMIN, body: {} });
    await h.settleJobs();

    // Act
    const lead = await h.call('POST', '/api/audit/exports', { as: 'lead@northside.demo.local', body: {} });
    const other = await h.call('GET', `/api/audit/exports/${accepted.body.jobId}`, { as: OTHER_ADMIN });
    const invalid = await h.call('POST', '/api/audit/exports', { as: ADMIN, body: { from: 'yesterday' } });

    // Assert
    expect(lead.status).toBe(403);
    expect(other.status).toBe(404);
    expect(JSON.stringify(other.body)).toContain('JOB_NOT_FOUND');
    expect(invalid.status).toBe(400);
  });
});
