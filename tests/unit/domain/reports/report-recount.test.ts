import { describe, expect, it } from 'vitest';
import { createDataset } from '#shared/domain/datasets/create-dataset.ts';
import { changeStatus } from '#shared/domain/datasets/change-status.ts';
import { monthsBetween, startReportRecount } from '#shared/domain/reports/backfill.ts';
import { counterName } from '#shared/domain/reports/counters.ts';
import { getReports } from '#shared/domain/reports/reports.ts';
import { caller, NEW_DATASET, ports, runStartedJobs } from '#tests/unit/domain/fakes.ts';

/** The REPORT_COUNTERS job (docs/jobs.md): the report items recounted from the datasets, month by month. */
describe('the report counters recount', () => {
  it('rebuilds lost, wrong and stale items from the datasets, and writes the same when run again', async () => {
    // Arrange: a hospital since December 2025 with studies in December and February, whose items are then damaged
    const p = ports();
    await p.directory.putHospital({
      id: 'h1',
      slug: 'h1',
      name: 'H',
      createdAt: '2025-12-10T00:00:00.000Z',
      updatedAt: '',
    });
    const member = caller('TEAM_MEMBER');
    await createDataset(NEW_DATASET, member, { ...p, clock: { now: () => '2025-12-24T08:00:00.000Z' } });
    const feb = await createDataset(NEW_DATASET, member, p);
    await changeStatus(p, {
      hospitalId: 'h1',
      datasetId: feb.id,
      from: ['CREATED'],
      to: 'UPLOADING',
      actorUserId: 'u1',
      actorName: 'A B',
    });
    const before = await getReports({ months: 3 }, caller('HOSPITAL_ADMIN'), p);
    await p.organisation.deleteReportCounts('h1', { scope: 'hospital', period: '2025-12' });
    await p.organisation.putReportCounts('h1', {
      scope: 't1',
      period: '2026-02',
      counts: { studies: 40, [counterName.status('FAILED')]: 40 },
      names: {},
    });
    await p.organisation.putReportCounts('h1', {
      scope: 'hospital',
      period: '2026-01',
      counts: { studies: 3 },
      names: {},
    });

    // Act
    const accepted = await startReportRecount(caller('HOSPITAL_ADMIN'), p);
    await runStartedJobs(p);
    const once = await p.organisation.listReportCounts('h1', 'hospital', '2025-01', '2026-12');
    await startReportRecount(caller('HOSPITAL_ADMIN'), p);
    await runStartedJobs(p);
    const twice = await p.organisation.listReportCounts('h1', 'hospital', '2025-01', '2026-12');

    // Assert: the months from the hospital's creation, the report as the moves had it, the same after a second run
    expect(accepted.job.kind).toBe('REPORT_COUNTERS');
    const job = await p.jobs.get({ ownerHospitalId: 'h1', jobId: accepted.jobId });
    expect(job).toMatchObject({ status: 'SUCCEEDED', total: 3, succeeded: 3 });
    expect(monthsBetween('2025-12-10T00:00:00.000Z', '2026-02-01T10:00:00.000Z')).toEqual([
      '2025-12',
      '2026-01',
      '2026-02',
    ]);
    expect(await getReports({ months: 3 }, caller('HOSPITAL_ADMIN'), p)).toEqual(before);
    expect(once.map((item) => item.period)).toEqual(['2025-12', '2026-02']);
    expect(twice).toEqual(once);
    const [team] = await p.organisation.listReportCounts('h1', 't1', '2026-02', '2026-02');
    expect(team?.counts.studies).toBe(1);
    expect(team?.counts[counterName.status('UPLOADING')]).toBe(1);
  });
});
