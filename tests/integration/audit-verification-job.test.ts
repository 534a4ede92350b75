import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestKey, writeDigest } from '#shared/domain/audit/digests.ts';
import type { MemoryDigestStore } from '#functions/adapters/memory/audit-digests.ts';
import { startHarness, type Harness } from './datasets-harness.ts';

/**
 * The full audit verification through the real handlers (docs/jobs.md): `POST /api/audit/verifications` answers 202
 * with the job at once, the job checks the signed digests and walks the chain after the answer, and its per-item
 * results say where the trail is broken.
 */
const ADMIN = 'admin@northside.demo.local';
const TEAM_LEAD = 'lead@northside.demo.local';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

describe('the full audit verification job', () => {
  it('answers 202 with the job, which verifies the digests and the chain and records the outcome', async () => {
    // Arrange
    const hospitalId = h.user(ADMIN).hospitalId;
    await h.call('GET', '/api/audit', { as: ADMIN, query: { limit: '5' } });
    await writeDigest(hospitalId, h.deps);

    // Act
    const accepted = await h.call('POST', '/api/audit/verifications', { as: ADMIN, body: {} });
    await h.settleJobs();
    const done = await h.call('GET', `/api/jobs/${accepted.body.jobId}`, { as: ADMIN });
    const results = await h.call('GET', `/api/jobs/${accepted.body.jobId}/results`, { as: ADMIN });

    // Assert
    expect(accepted.status).toBe(202);
    expect(accepted.body.job).toMatchObject({ kind: 'AUDIT_VERIFICATION', status: 'QUEUED' });
    expect(done.body).toMatchObject({ status: 'SUCCEEDED', failed: 0 });
    expect(results.body.items[0]).toMatchObject({ subject: 'signed digests', outcome: 'SUCCEEDED' });
    expect((await h.deps.audit.head(hospitalId))!.lastVerification).toMatchObject({ verified: true });
  });

  it('reports a forged digest as a failed item with the catalogue reason', async () => {
    // Arrange
    const hospitalId = h.user(ADMIN).hospitalId;
    await h.call('GET', '/api/audit', { as: ADMIN, query: { limit: '5' } });
    const written = await writeDigest(hospitalId, h.deps);
    const store = h.deps.digests.store as MemoryDigestStore;
    const key = digestKey(hospitalId, written.digest!.toSeq);
    const stored = store.objects.get(key)!;
    store.objects.set(key, { ...stored, body: stored.body.replace(/"headHash":"[0-9a-f]/, '"headHash":"x') });

    // Act
    const accepted = await h.call('POST', '/api/audit/verifications', { as: ADMIN, body: {} });
    await h.settleJobs();
    const done = await h.call('GET', `/api/jobs/${accepted.body.jobId}`, { as: ADMIN });
    const results = await h.call('GET', `/api/jobs/${accepted.body.jobId}/results`, { as: ADMIN });
    const refused = await h.call('POST', '/api/audit/verifications', { as: TEAM_LEAD, body: {} });

    // Assert
    expect(done.body).toMatchObject({ status: 'SUCCEEDED', failed: 1 });
    expect(results.body.items[0]).toMatchObject({
      subject: 'signed digests',
      outcome: 'FAILED',
      code: 'AUDIT_CHAIN_BROKEN',
      reason: 'The audit trail is broken here: an event or a signed digest was changed or removed.',
    });
    expect((await h.deps.audit.head(hospitalId))!.lastVerification).toMatchObject({ verified: false });
    expect(refused.status).toBe(403);
  });
});
