/**
 * The audit log exported as a job (docs/jobs.md, docs/domain.md#audit-export): one page of the search per chunk from
 * the stored cursor, each page's rows written by its position, the CSV joined at the end with the CSV route's columns
 * and formula escaping and no row cap, followed only by its starter.
 */
import { describe, expect, it } from 'vitest';
import { JOB_KINDS } from '#functions/jobs/job-kinds.ts';
import { AUDIT_EXPORT_MAX_ROWS, exportAuditCsv } from '#shared/domain/audit/audit-trail.ts';
import {
  AUDIT_EXPORT_PAGE,
  auditExportKey,
  getAuditExport,
  startAuditExport,
} from '#shared/domain/audit/export-job.ts';
import { runJob, type JobKinds } from '#shared/domain/jobs/runner.ts';
import type { AuditEntry } from '#shared/domain/ports.ts';
import { caller, fakeDirectory, ports, runStartedJobs } from '#tests/unit/domain/fakes.ts';

const entry = (n: number): AuditEntry => ({
  hospitalId: 'h1',
  action: 'DATASET_VIEWED',
  actorUserId: `u${n}`,
  // A name a spreadsheet would run as a formula: the CSV must escape it.
  actorName: n % 2 === 0 ? '=HYPERLINK("x")' : 'Pat Lead',
  datasetId: `d${n}`,
  details: { n },
});

async function setup(events: number) {
  const p = ports();
  const deps = { ...p, directory: fakeDirectory() };
  for (let n = 1; n <= events; n++) await p.audit.record(entry(n));
  return { p, deps };
}

const ADMIN = caller('HOSPITAL_ADMIN');
const FILTER = { action: 'DATASET_VIEWED' };
const csvOf = async (p: ReturnType<typeof ports>, jobId: string) =>
  new TextDecoder().decode(await p.objects.get('studies', auditExportKey({ ownerHospitalId: 'h1', id: jobId })));

describe('the audit export job', () => {
  it('reads one page per chunk and writes the same CSV as the CSV route', async () => {
    // Arrange
    const events = 2 * AUDIT_EXPORT_PAGE + 7;
    const { p, deps } = await setup(events);
    const expected = (await exportAuditCsv(FILTER, ADMIN, deps)).csv;

    // Act
    const accepted = await startAuditExport(FILTER, ADMIN, deps);
    await runStartedJobs(deps);
    const ref = { ownerHospitalId: 'h1', jobId: accepted.jobId };
    const job = await p.jobs.get(ref);
    const results = await p.jobs.listResults(ref, 10);

    // Assert
    expect(accepted.job).toMatchObject({ kind: 'AUDIT_EXPORT', status: 'QUEUED', hospitalId: 'h1' });
    expect(job).toMatchObject({ status: 'SUCCEEDED', processed: 3, succeeded: 3, failed: 0 });
    expect(results.items.map((r) => [r.subject, r.ref])).toEqual([
      ['page 1', 'rows:500'],
      ['page 2', 'rows:500'],
      ['page 3', 'rows:7'],
    ]);
    expect(await csvOf(p, accepted.jobId)).toBe(expected);
    expect(expected).toContain(`"'=HYPERLINK(""x"")"`);
    expect(p.audit.events.at(-1)).toMatchObject({
      action: 'AUDIT_EXPORTED',
      actorUserId: ADMIN.userId,
      details: { rows: events, exportId: accepted.jobId, action: 'DATASET_VIEWED' },
    });
  });

  it('has no row cap: a period longer than the CSV route holds is exported whole', async () => {
    // Arrange
    const events = AUDIT_EXPORT_MAX_ROWS + 3;
    const { p, deps } = await setup(events);

    // Act
    const accepted = await startAuditExport(FILTER, ADMIN, deps);
    await runStartedJobs(deps);
    const lines = (await csvOf(p, accepted.jobId)).split('\r\n');

    // Assert
    expect(lines).toHaveLength(1 + events);
    expect(lines.at(-1)).toContain('u1,d1');
  });

  it('resumes from its cursor after a failed chunk, and the page written again replaces its part', async () => {
    // Arrange
    const { p, deps } = await setup(AUDIT_EXPORT_PAGE + 5);
    const expected = (await exportAuditCsv(FILTER, ADMIN, deps)).csv;
    const accepted = await startAuditExport(FILTER, ADMIN, deps);
    const ref = deps.jobStarter.started.shift()!;
    const put = p.objects.put.bind(p.objects);
    let puts = 0;
    // The second page's part is lost once (a throttled service): the chunk throws and runs again.
    p.objects.put = async (...args) => {
      if (++puts === 2) throw new Error('SlowDown');
      return put(...args);
    };
    const kinds = JOB_KINDS as unknown as JobKinds<typeof deps>;

    // Act
    const cut = await runJob(ref, kinds, deps).catch((error: unknown) => error);
    const stopped = await p.jobs.get(ref);
    await runJob(ref, kinds, deps);
    // A run that reads the job again after it finished changes nothing.
    await runJob(ref, kinds, deps);
    const job = await p.jobs.get(ref);

    // Assert
    expect(cut).toBeInstanceOf(Error);
    expect(stopped).toMatchObject({ status: 'RUNNING', chunks: 1, chunkFailures: 1 });
    expect(job).toMatchObject({ status: 'SUCCEEDED', processed: 2, failed: 0 });
    expect(await csvOf(p, accepted.jobId)).toBe(expected);
  });

  it('hands its link to the starter only; anyone else finds no such export', async () => {
    // Arrange
    const { deps } = await setup(3);
    const accepted = await startAuditExport({}, ADMIN, deps);
    await runStartedJobs(deps);

    // Act
    const own = await getAuditExport(accepted.jobId, ADMIN, deps);
    const other = getAuditExport(accepted.jobId, caller('HOSPITAL_ADMIN', { userId: 'another-admin' }), deps);

    // Assert
    expect(own).toMatchObject({ id: accepted.jobId, hospitalId: 'h1', job: { status: 'SUCCEEDED' } });
    expect(own.download).toMatchObject({ fileName: 'audit-log-h1-2026-02-01.csv' });
    expect(own.download!.byteSize).toBeGreaterThan(0);
    await expect(other).rejects.toMatchObject({ code: 'JOB_NOT_FOUND' });
  });
});
