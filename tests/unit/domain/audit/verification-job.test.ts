/**
 * The full audit verification as a job (docs/jobs.md): the signed digests first, then the chain a range at a time
 * from the job's cursor, the outcome kept on the head at the end; a run cut off between chunks resumes from the cursor.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryDigestSigner, createMemoryDigestStore } from '#functions/adapters/memory/audit-digests.ts';
import { JOB_KINDS } from '#functions/jobs/job-kinds.ts';
import { digestKey, writeDigest } from '#shared/domain/audit/digests.ts';
import { startAuditVerification, VERIFICATION_RANGE } from '#shared/domain/audit/verification-job.ts';
import { runJob, type JobKinds } from '#shared/domain/jobs/runner.ts';
import type { AuditEntry } from '#shared/domain/ports.ts';
import { caller, fakeDirectory, ports, runStartedJobs } from '#tests/unit/domain/fakes.ts';

const entry = (n: number): AuditEntry => ({
  hospitalId: 'h1',
  action: 'DATASET_VIEWED',
  actorUserId: `u${n}`,
  actorName: 'Pat Lead',
  datasetId: `d${n}`,
  details: { n },
});

async function setup(events: number) {
  const p = ports();
  const deps = {
    ...p,
    directory: fakeDirectory(),
    digests: { store: createMemoryDigestStore(), signer: createMemoryDigestSigner() },
  };
  for (let n = 1; n <= events; n++) await p.audit.record(entry(n));
  return { p, deps };
}

describe('the full verification job', () => {
  it('checks the digests, then every range of positions, and keeps the outcome on the head', async () => {
    // Arrange
    const events = 2 * VERIFICATION_RANGE + 5;
    const { p, deps } = await setup(events);
    await writeDigest('h1', deps);

    // Act
    const accepted = await startAuditVerification({}, caller('HOSPITAL_ADMIN'), deps);
    await runStartedJobs(deps);
    const job = await p.jobs.get({ ownerHospitalId: 'h1', jobId: accepted.jobId });
    const results = await p.jobs.listResults({ ownerHospitalId: 'h1', jobId: accepted.jobId }, 10);

    // Assert
    expect(accepted.job).toMatchObject({ kind: 'AUDIT_VERIFICATION', status: 'QUEUED', total: 4 });
    expect(job).toMatchObject({ status: 'SUCCEEDED', processed: 4, succeeded: 4, failed: 0 });
    expect(results.items.map((r) => [r.subject, r.ref])).toEqual([
      ['signed digests', 'digests:1'],
      ['events 1-1000', 'events:1000'],
      ['events 1001-2000', 'events:1000'],
      [`events 2001-${events}`, 'events:5'],
    ]);
    expect((await p.audit.head('h1'))!.lastVerification).toMatchObject({ verified: true, checkedEvents: events });
    expect(p.audit.events.at(-1)).toMatchObject({ action: 'AUDIT_CHAIN_VERIFIED', outcome: 'SUCCESS' });
  });

  it('resumes from its cursor after a run that stopped between chunks, each range verified once', async () => {
    // Arrange
    const { deps } = await setup(VERIFICATION_RANGE + 10);
    const accepted = await startAuditVerification({}, caller('HOSPITAL_ADMIN'), deps);
    const ref = deps.jobStarter.started.shift()!;
    let chunks = 0;

    // Act: the first run has time for two chunks, the next picks up where it stopped.
    const first = await runJob(ref, JOB_KINDS as unknown as JobKinds<typeof deps>, deps, () => chunks++ < 2);
    const second = await runJob(ref, JOB_KINDS as unknown as JobKinds<typeof deps>, deps);

    // Assert
    expect(first.done).toBe(false);
    expect(second.job).toMatchObject({ status: 'SUCCEEDED', processed: 3, failed: 0 });
    expect(accepted.job.total).toBe(3);
  });

  it('reports an edited event and a forged digest as failed items with their position, and a failed verification', async () => {
    // Arrange
    const { p, deps } = await setup(30);
    await writeDigest('h1', deps);
    p.audit.events[11]!.details = { n: 'edited' };
    const stored = deps.digests.store.objects.get(digestKey('h1', 30))!;
    deps.digests.store.objects.set(stored.key, { ...stored, body: stored.body.replace('"fromSeq":1', '"fromSeq":2') });

    // Act
    const accepted = await startAuditVerification({}, caller('HOSPITAL_ADMIN'), deps);
    await runStartedJobs(deps);
    const results = await p.jobs.listResults({ ownerHospitalId: 'h1', jobId: accepted.jobId }, 10);

    // Assert
    expect(results.items.map((r) => [r.outcome, r.code, r.ref])).toEqual([
      ['FAILED', 'AUDIT_CHAIN_BROKEN', 'digest:30:SIGNATURE_INVALID'],
      ['FAILED', 'AUDIT_CHAIN_BROKEN', 'event:12:HASH_MISMATCH'],
    ]);
    expect((await p.audit.head('h1'))!.lastVerification).toMatchObject({ verified: false, brokenAtSeq: 30 });
    expect(p.audit.events.at(-1)).toMatchObject({ action: 'AUDIT_CHAIN_VERIFIED', outcome: 'FAILURE' });
  });
});
