import { describe, expect, it } from 'vitest';
import { changeStatus } from '#shared/domain/datasets/change-status.ts';
import { createDataset } from '#shared/domain/datasets/create-dataset.ts';
import { moveToRecycleBin } from '#shared/domain/datasets/delete-dataset.ts';
import type { DatasetRecord } from '#shared/domain/datasets/ports.ts';
import { restoreDataset } from '#shared/domain/datasets/recycle-bin.ts';
import { getTeamAnalytics } from '#shared/domain/organisation/team-analytics.ts';
import {
  counterName,
  dayCounter,
  histogramPercentile,
  HOSPITAL_PARTS,
  processingBucket,
  processingMinutes,
  PROCESSING_BUCKET_BOUNDS,
  recountReportItems,
} from '#shared/domain/reports/counters.ts';
import { getReports, percentile } from '#shared/domain/reports/reports.ts';
import type { DatasetStatus } from '#shared/vocabulary/datasets.ts';
import { DEFAULT_SCALE_SHAPE, scaleDataset } from '#tests/helpers/hospital-scale.ts';
import { caller, fakeDirectory, NEW_DATASET, ports } from '#tests/unit/domain/fakes.ts';

/** The report counters (docs/domain.md#report-counters): moved where datasets change, read instead of the datasets. */
const actor = { actorUserId: 'u1', actorName: 'A B' };
const PIPELINE: [DatasetStatus, DatasetStatus, Partial<DatasetRecord>][] = [
  ['CREATED', 'UPLOADING', {}],
  ['UPLOADING', 'ANONYMIZING', { processingStartedAt: '2026-02-01T10:00:00.000Z' }],
  ['ANONYMIZING', 'CLASSIFYING', {}],
  ['CLASSIFYING', 'PROCESSING', {}],
  ['PROCESSING', 'COMPLETE', { completedAt: '2026-02-01T10:07:30.000Z' }],
];

/** February's counts of the hospital, its three parts together. */
async function february(p: ReturnType<typeof ports>) {
  const counts: Record<string, number> = {};
  for (const scope of HOSPITAL_PARTS)
    for (const item of await p.organisation.listReportCounts('h1', scope, '2026-02', '2026-02'))
      Object.assign(counts, item.counts);
  return Object.fromEntries(Object.entries(counts).filter(([, n]) => n !== 0));
}

async function liveDatasets(p: ReturnType<typeof ports>) {
  return (await p.datasets.list({ hospitalId: 'h1', limit: 100 })).items;
}

describe('report counters', () => {
  it('count a dataset in its creation month, move its status there, and leave with it to the recycle bin', async () => {
    // Arrange
    const p = ports();
    const created = await createDataset(NEW_DATASET, caller('TEAM_MEMBER'), p);
    const owner = counterName.creator('user-team_member');

    // Act: through the pipeline to COMPLETE in 7.5 minutes
    for (const [from, to, fields] of PIPELINE)
      await changeStatus(p, { hospitalId: 'h1', datasetId: created.id, from: [from], to, fields, ...actor });
    const complete = await february(p);

    // Assert
    expect(complete).toEqual({
      studies: 1,
      'type#DIAGNOSTIC': 1,
      'status#COMPLETE': 1,
      [owner]: 1,
      'team#t1#studies': 1,
      'team#t1#completed': 1,
      [counterName.processing(processingBucket(7.5))]: 1,
    });
    expect(PROCESSING_BUCKET_BOUNDS[processingBucket(7.5)]).toBe(8);
    // The team's month item carries the same counts, again under the creation day, and the creator's name.
    const [teamMonth] = await p.organisation.listReportCounts('h1', 't1', '2026-02', '2026-02');
    expect(teamMonth?.counts).toMatchObject({
      studies: 1,
      'status#COMPLETE': 1,
      [dayCounter('2026-02-01', 'studies')]: 1,
      [dayCounter('2026-02-01', 'status#COMPLETE')]: 1,
    });
    expect(teamMonth?.names).toEqual({ [counterName.ownerName('user-team_member')]: 'Pat TEAM_MEMBER' });

    // A released series processed again leaves COMPLETE, and its histogram bucket with it.
    const dataset = await changeStatus(p, {
      hospitalId: 'h1',
      datasetId: created.id,
      from: ['COMPLETE'],
      to: 'UPLOADING',
      ...actor,
    });
    expect(await february(p)).toEqual({
      studies: 1,
      'type#DIAGNOSTIC': 1,
      'status#UPLOADING': 1,
      [owner]: 1,
      'team#t1#studies': 1,
    });

    // The recycle bin takes everything away; a restore gives it back.
    await moveToRecycleBin(dataset, actor, 'DATASET_DELETED', 'test', p);
    expect(await february(p)).toEqual({});
    await restoreDataset(dataset.id, caller('HOSPITAL_ADMIN'), p);
    expect(await february(p)).toMatchObject({ studies: 1, 'status#UPLOADING': 1, [owner]: 1 });
  });

  it('a recount of the live datasets finds the items the moves left', async () => {
    // Arrange: three datasets, one through the pipeline, one binned
    const p = ports();
    const member = caller('TEAM_MEMBER');
    const a = await createDataset(NEW_DATASET, member, p);
    await createDataset(NEW_DATASET, caller('TEAM_LEAD'), { ...p, clock: { now: () => '2026-01-15T08:00:00.000Z' } });
    const binned = await createDataset(NEW_DATASET, member, p);
    for (const [from, to, fields] of PIPELINE)
      await changeStatus(p, { hospitalId: 'h1', datasetId: a.id, from: [from], to, fields, ...actor });
    await moveToRecycleBin((await p.datasets.get('h1', binned.id))!, actor, 'DATASET_DELETED', 'test', p);

    // Act
    const recount = recountReportItems(await liveDatasets(p));

    // Assert
    const nonZero = (counts: Record<string, number>) => Object.entries(counts).filter(([, n]) => n !== 0);
    for (const item of recount) {
      const [stored] = await p.organisation.listReportCounts('h1', item.scope, item.period, item.period);
      expect(Object.fromEntries(nonZero(stored!.counts)), `${item.scope} ${item.period}`).toEqual(item.counts);
    }
    expect(recount.map((i) => `${i.scope} ${i.period}`).sort()).toEqual([
      'hospital 2026-01',
      'hospital 2026-02',
      'hospital:creators 2026-01',
      'hospital:creators 2026-02',
      'hospital:teams 2026-01',
      'hospital:teams 2026-02',
      't1 2026-01',
      't1 2026-02',
    ]);
  });

  it('reads percentiles from the histogram within one bucket of the exact nearest rank on the same studies', () => {
    // Arrange: the completed studies of the hospital-scale generator, and the same times 2.37 times longer
    const completed = Array.from({ length: 3_000 }, (_, i) => scaleDataset(i, DEFAULT_SCALE_SHAPE)).filter(
      (d) => d.status === 'COMPLETE',
    );
    for (const stretch of [1, 2.37]) {
      const minutes = completed.map((d) => processingMinutes(d)! * stretch).sort((x, y) => x - y);
      const buckets = Array.from({ length: PROCESSING_BUCKET_BOUNDS.length + 1 }, () => 0);
      for (const m of minutes) buckets[processingBucket(m)]!++;

      for (const p of [50, 90, 99]) {
        // Act
        const exact = percentile(minutes, p)!;
        const read = histogramPercentile(buckets, p)!;

        // Assert: the bound of the bucket the exact value lies in, never below it, above by less than its width
        const bucket = processingBucket(exact);
        expect(read).toBe(PROCESSING_BUCKET_BOUNDS[bucket]);
        expect(read).toBeGreaterThanOrEqual(exact);
        expect(read - exact).toBeLessThan(read - (PROCESSING_BUCKET_BOUNDS[bucket - 1] ?? 0));
      }
    }
    expect(histogramPercentile([0, 0], 50)).toBeNull();
    // Past the last bound: the overflow bucket reads as the last bound.
    expect(histogramPercentile([...PROCESSING_BUCKET_BOUNDS.map(() => 0), 3], 50)).toBe(1440);
  });

  it('answers the reports and the year of team analytics from counters alone', async () => {
    // Arrange: studies of the first (partial) month of the year, of a later month, and one before the year
    const p = ports();
    const member = caller('TEAM_MEMBER');
    const at = (now: string) => ({ ...p, clock: { now: () => now } });
    await createDataset(NEW_DATASET, member, at('2025-02-01T09:00:00.000Z'));
    await createDataset(NEW_DATASET, member, at('2025-02-03T09:00:00.000Z'));
    await createDataset(NEW_DATASET, member, at('2025-02-02T09:00:00.000Z'));
    await createDataset(NEW_DATASET, member, at('2025-11-20T09:00:00.000Z'));
    const noDatasets = { ...p, datasets: undefined };
    const deps = { ...noDatasets, directory: fakeDirectory() };

    // Act
    const year = await getTeamAnalytics(caller('TEAM_LEAD'), 't1', 'LAST_YEAR', deps);
    const reports = await getReports({ months: 12 }, caller('HOSPITAL_ADMIN'), deps);

    // Assert: the year starts on 2025-02-02, so the first of February is left out.
    expect(year.from).toBe('2025-02-02');
    expect(year.totalDatasets).toBe(3);
    expect(year.timeline[0]).toEqual({ bucket: '2025-02', datasets: 2 });
    expect(year.timeline.find((b) => b.bucket === '2025-11')?.datasets).toBe(1);
    expect(year.memberActivity).toEqual([{ name: 'Pat TEAM_MEMBER', datasets: 3 }]);
    expect(year.truncated).toBe(false);
    // The report's twelve calendar months begin with March 2025.
    expect(reports.totals.studies).toBe(1);
    expect(reports.byTeam).toEqual([expect.objectContaining({ teamId: 't1', studies: 1, completed: 0, failed: 0 })]);
  });
});
