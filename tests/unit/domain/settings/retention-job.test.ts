import { describe, expect, it } from 'vitest';
import { createDataset } from '#shared/domain/datasets/create-dataset.ts';
import { setLegalHold } from '#shared/domain/datasets/legal-hold.ts';
import { deleteDataset } from '#shared/domain/datasets/delete-dataset.ts';
import type { JobRef } from '#shared/domain/jobs/ports.ts';
import { runJob, type JobKinds } from '#shared/domain/jobs/runner.ts';
import { JOB_KINDS } from '#functions/jobs/job-kinds.ts';
import {
  RETENTION_PAGE,
  retentionJobId,
  startRetentionJobs,
  type RetentionDeps,
} from '#shared/domain/settings/retention.ts';
import { caller, NEW_DATASET, ports } from '#tests/unit/domain/fakes.ts';
import { movePatientShareCounters } from '#shared/domain/dashboards/counters.ts';
import type { PatientShareRecord } from '#shared/domain/shares/ports.ts';
import { NORTHSIDE_PROFILE } from '#tests/helpers/fixtures.ts';

/**
 * The RETENTION job kind (docs/jobs.md, docs/pipeline.md#data-retention) over the in-memory ports: the day's job per
 * hospital, chunks of at most RETENTION_PAGE datasets, a chunk cut off and run again from the stored cursor.
 */
const NOW = '2026-02-01T10:00:00.000Z';
const DAY = 86_400_000;
const member = caller('TEAM_MEMBER');
const lead = caller('TEAM_LEAD');
type Ports = ReturnType<typeof ports>;
const KINDS = JOB_KINDS as unknown as JobKinds<Ports & RetentionDeps>;

async function setUp(expired: number) {
  const p = ports();
  p.clock.now = () => NOW;
  await p.settings.putTeamPolicy('h1', 't1', {
    value: { dataRetentionDays: 30 },
    updatedAt: 'x',
    updatedByUserId: 'u',
  });
  const ids: string[] = [];
  for (let i = 0; i < expired; i++) {
    const d = await createDataset(NEW_DATASET, member, p);
    const row = p.datasets.rows.get(`h1/${d.id}`)!;
    p.datasets.rows.set(`h1/${d.id}`, { ...row, createdAt: new Date(Date.parse(NOW) - (40 + i) * DAY).toISOString() });
    ids.push(d.id);
  }
  return { p, ids };
}

/** Starts the day's jobs; answers the one of hospital h1. */
async function startDay(p: Ports): Promise<JobRef> {
  const { started } = await startRetentionJobs(p);
  p.jobStarter.started.length = 0;
  const ref = started.find((r) => r.ownerHospitalId === 'h1');
  if (!ref) throw new Error('no job for h1');
  return ref;
}

/** Runs one chunk of the job (the worker's time ends after it). */
async function oneChunk(ref: JobRef, p: Ports) {
  let budget = 1;
  return runJob(ref, KINDS, p, () => budget-- > 0);
}

const events = (p: Ports, action: string) => p.audit.events.filter((e) => e.action === action).map((e) => e.datasetId);

describe('the retention schedule', () => {
  it('starts one job per active hospital and day, and none on a second run of the same day', async () => {
    // Arrange
    const { p } = await setUp(1);
    await p.settings.updateHospitalProfile('h2', NORTHSIDE_PROFILE, NOW);
    await p.settings.updateHospitalProfile('h3', NORTHSIDE_PROFILE, NOW);
    await p.org.store.putHospital({ id: 'h3', status: 'DEACTIVATED' } as never);

    // Act
    const first = await startRetentionJobs(p);
    const second = await startRetentionJobs(p, '2026-02-01T03:00:00Z');

    // Assert
    const id = retentionJobId(NOW);
    expect(id).toBe('retention-2026-02-01');
    expect(first).toEqual({
      started: [
        { ownerHospitalId: 'h1', jobId: id },
        { ownerHospitalId: 'h2', jobId: id },
      ],
      existing: 0,
      inactive: 1,
    });
    expect(second).toEqual({ started: [], existing: 2, inactive: 1 });
    // The jobs never ran, so the second run hands them over again, and creates no second job.
    expect(p.jobStarter.started).toHaveLength(4);
    expect(await p.jobs.get({ ownerHospitalId: 'h1', jobId: id })).toMatchObject({
      kind: 'RETENTION',
      status: 'QUEUED',
      createdBy: { userId: 'retention', name: 'Data retention' },
    });
  });
});

describe('the RETENTION job kind', () => {
  it('moves more expired datasets than one chunk holds, at most RETENTION_PAGE a chunk, each audited once', async () => {
    // Arrange
    const { p, ids } = await setUp(RETENTION_PAGE + 5);
    const ref = await startDay(p);

    // Act: one chunk at a time, as a worker that runs out of time after each.
    const moved: number[] = [];
    for (let done = false, before = 0; !done;) {
      const run = await oneChunk(ref, p);
      done = run.done;
      const job = (await p.jobs.get(ref))!;
      moved.push(job.processed - before);
      before = job.processed;
    }

    // Assert
    const job = (await p.jobs.get(ref))!;
    expect(job).toMatchObject({ status: 'SUCCEEDED', processed: ids.length, succeeded: ids.length, failed: 0 });
    expect(Math.max(...moved)).toBeLessThanOrEqual(RETENTION_PAGE);
    expect(moved.filter((n) => n > 0).length).toBeGreaterThan(1);
    for (const id of ids) expect(await p.datasets.getInBin('h1', id)).toMatchObject({ deletionReason: 'retention' });
    expect(events(p, 'DATASET_RETENTION_EXPIRED').sort()).toEqual([...ids].sort());
  });

  it('resumes from its stored cursor after a crash, and a chunk run again moves nothing twice', async () => {
    // Arrange: the store fails the advance of the second chunk once, after its items were done.
    const { p, ids } = await setUp(RETENTION_PAGE + 5);
    const ref = await startDay(p);
    const advance = p.jobs.advance.bind(p.jobs);
    let advances = 0;
    p.jobs.advance = async (...args) => {
      if (++advances === 2) throw new Error('worker crashed');
      return advance(...args);
    };

    // Act
    await oneChunk(ref, p);
    await expect(runJob(ref, KINDS, p)).rejects.toThrow('worker crashed');
    const cut = (await p.jobs.get(ref))!;
    await runJob(ref, KINDS, p);

    // Assert: the cut-off chunk counted nothing; run again, it reports its datasets as moved, once each.
    expect(cut).toMatchObject({ status: 'RUNNING', processed: 0, chunkFailures: 1 });
    const job = (await p.jobs.get(ref))!;
    expect(job).toMatchObject({ status: 'SUCCEEDED', processed: ids.length, succeeded: ids.length, failed: 0 });
    const results = p.jobs.results(ref);
    expect(results.map((r) => r.seq)).toEqual(ids.map((_, i) => i + 1));
    expect(results.every((r) => r.outcome === 'SUCCEEDED' && r.ref === 'recycle-bin')).toBe(true);
    expect(events(p, 'DATASET_RETENTION_EXPIRED').sort()).toEqual([...ids].sort());
  });

  it('purges the bin past its 30 days once, when the purging chunk is cut off and run again', async () => {
    // Arrange: datasets deleted by hand 31 days before the job.
    const p = ports();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const d = await createDataset(NEW_DATASET, member, p);
      await p.objects.put('assets', `h1/${d.id}/volume.nii`, new Uint8Array(2));
      await deleteDataset(d.id, {}, lead, p);
      ids.push(d.id);
    }
    p.clock.now = () => new Date(Date.parse('2026-02-01T10:00:00.000Z') + 31 * DAY).toISOString();
    const ref = await startDay(p);
    const advance = p.jobs.advance.bind(p.jobs);
    let crashed = false;
    p.jobs.advance = async (r, expected, change) => {
      if (!crashed && change.succeeded > 0) {
        crashed = true;
        throw new Error('worker crashed');
      }
      return advance(r, expected, change);
    };

    // Act
    await expect(runJob(ref, KINDS, p)).rejects.toThrow('worker crashed');
    await runJob(ref, KINDS, p);

    // Assert
    expect(await p.jobs.get(ref)).toMatchObject({ status: 'SUCCEEDED', processed: 3, succeeded: 3 });
    expect(p.jobs.results(ref).map((r) => [r.subject, r.outcome, r.ref])).toEqual(
      ids.map((id) => [id, 'SUCCEEDED', 'purged']),
    );
    expect(events(p, 'DATASET_PURGED').sort()).toEqual([...ids].sort());
    expect(p.objects.objects.size).toBe(0);
  });

  it('keeps a dataset under legal hold, live or in the bin, and reports it skipped', async () => {
    // Arrange: one of two expired datasets held, and a held dataset in the bin past its 30 days.
    const { p, ids } = await setUp(2);
    await setLegalHold(ids[0]!, { on: true, reason: 'Litigation 42' }, lead, p);
    const binned = await createDataset(NEW_DATASET, member, p);
    await deleteDataset(binned.id, {}, lead, p);
    const inBin = p.datasets.rows.get(`h1/${binned.id}`)!;
    p.datasets.rows.set(`h1/${binned.id}`, {
      ...inBin,
      purgeAfter: new Date(Date.parse(NOW) - DAY).toISOString(),
      legalHold: { reason: 'Litigation 43', since: NOW, byUserId: 'u', byName: 'Pat' },
    });

    // Act
    const ref = await startDay(p);
    await runJob(ref, KINDS, p);

    // Assert
    expect(p.jobs.results(ref).map((r) => [r.subject, r.outcome, r.code])).toEqual([
      [ids[0], 'SKIPPED', 'LEGAL_HOLD'],
      [ids[1], 'SUCCEEDED', null],
      [binned.id, 'SKIPPED', 'LEGAL_HOLD'],
    ]);
    expect(await p.datasets.get('h1', ids[0]!)).toBeDefined();
    expect(p.datasets.rows.has(`h1/${binned.id}`)).toBe(true);
    expect(events(p, 'DATASET_PURGED')).toEqual([]);
  });

  it("leaves a hospital deactivated while its job runs untouched from the job's next chunk", async () => {
    // Arrange
    const { p, ids } = await setUp(RETENTION_PAGE + 5);
    const ref = await startDay(p);
    await oneChunk(ref, p);
    await oneChunk(ref, p);
    const before = events(p, 'DATASET_RETENTION_EXPIRED').length;

    // Act
    await p.org.store.putHospital({ id: 'h1', status: 'DEACTIVATED' } as never);
    await runJob(ref, KINDS, p);

    // Assert
    expect(before).toBe(RETENTION_PAGE);
    expect(await p.jobs.get(ref)).toMatchObject({ status: 'SUCCEEDED', processed: RETENTION_PAGE });
    expect(events(p, 'DATASET_RETENTION_EXPIRED')).toHaveLength(RETENTION_PAGE);
    expect(await p.datasets.get('h1', ids.at(-1)!)).toBeDefined();
  });

  it('stores EXPIRED on the links past their expiry, moving the share counters, once however often a chunk runs', async () => {
    // Arrange: 30 links stored ACTIVE past their expiry (more than a chunk), one still valid, one revoked.
    const { p } = await setUp(0);
    await p.org.store.putHospital({ id: 'h1', slug: 'h1', name: 'Hospital h1', createdAt: '', updatedAt: '' });
    const share = (id: string, status: PatientShareRecord['status'], expiresAt: string) =>
      ({
        id,
        hospitalId: 'h1',
        datasetId: 'ds1',
        status,
        expiresAt,
        opens: 0,
        maxOpens: 5,
        version: 1,
      }) as PatientShareRecord;
    const past = Array.from({ length: RETENTION_PAGE + 5 }, (_, i) =>
      share(`gone-${String(i).padStart(2, '0')}`, 'ACTIVE', new Date(Date.parse(NOW) - (i + 1) * DAY).toISOString()),
    );
    for (const stored of [
      ...past,
      share('valid', 'ACTIVE', '2999-01-01T00:00:00.000Z'),
      share('revoked', 'REVOKED', '2000-01-01T00:00:00.000Z'),
    ]) {
      await p.shares.putPatientShare(stored);
      await movePatientShareCounters(p.organisation, 'h1', undefined, stored.status);
    }
    const ref = await startDay(p);
    const advance = p.jobs.advance.bind(p.jobs);
    let advances = 0;
    p.jobs.advance = async (...args) => {
      if (++advances === 4) throw new Error('worker crashed');
      return advance(...args);
    };

    // Act: the worker crashes after a chunk's links were stored expired, and the job goes on from its cursor.
    await expect(runJob(ref, KINDS, p)).rejects.toThrow('worker crashed');
    await runJob(ref, KINDS, p);

    // Assert
    expect(await p.jobs.get(ref)).toMatchObject({ status: 'SUCCEEDED', processed: past.length, failed: 0 });
    const results = p.jobs.results(ref);
    expect(results.every((r) => r.outcome === 'SUCCEEDED' && r.ref === 'expired')).toBe(true);
    expect(results.map((r) => r.subject).sort()).toEqual(past.map((s) => s.id));
    for (const { id } of past) expect((await p.shares.getPatientShare('h1', 'ds1', id))?.status).toBe('EXPIRED');
    expect((await p.shares.getPatientShare('h1', 'ds1', 'valid'))?.status).toBe('ACTIVE');
    expect(await p.shares.countActivePastExpiry('h1', NOW)).toBe(0);
    const hospital = (await p.org.store.getHospital('h1')) as unknown as Record<string, number>;
    expect([hospital.patientShares_ACTIVE, hospital.patientShares_EXPIRED]).toEqual([1, past.length]);
  });
});
