import { describe, expect, it } from 'vitest';
import { BYTES_PER_GB } from '#shared/domain/settings/enforce.ts';
import { monthlyInvoice, nextMonthStart, usageBadge, usageHealth } from '#shared/domain/usage/billing.ts';
import { meterRun, meterTask } from '#shared/domain/usage/meter.ts';
import { getUsage, monthSeconds } from '#shared/domain/usage/usage.ts';
import { pipelineDeltas } from '#shared/domain/dashboards/counters.ts';
import { planRevenue, percentOf } from '#shared/domain/dashboards/dashboard.ts';
import { meterDatasetStorage } from '#shared/domain/usage/storage-meter.ts';
import { createDataset } from '#shared/domain/datasets/create-dataset.ts';
import { datasetPrefix } from '#shared/domain/object-keys.ts';
import { caller, NEW_DATASET, ports } from '#tests/unit/domain/fakes.ts';

describe('usage health bands and badge', () => {
  it('bands by percent used: over 100 overage, over 85 warning, over 60 good, else excellent', () => {
    expect([0, 60, 60.1, 85, 85.1, 100, 100.1].map(usageHealth)).toEqual([
      'excellent',
      'excellent',
      'good',
      'good',
      'warning',
      'warning',
      'overage',
    ]);
  });

  it('reads the badge from storage or compute, the stronger first', () => {
    expect(usageBadge(101, 10)).toBe('Overage Detected');
    expect(usageBadge(10, 101)).toBe('Overage Detected');
    expect(usageBadge(86, 10)).toBe('Approaching Limits');
    expect(usageBadge(85, 85)).toBe('Healthy Usage');
  });
});

describe('invoice', () => {
  it("is the plan's price per user per month times the users, due the first of the next month", () => {
    const invoice = monthlyInvoice({ id: 'h1', name: 'Northside', subscriptionPlan: 'PRO', userCount: 48 }, '2026-12');
    expect(invoice).toMatchObject({ plan: 'PRO', pricePerUser: 25, users: 48, amount: 1200, dueDate: '2027-01-01' });
    expect(monthlyInvoice({ id: 'h', name: 'T', subscriptionPlan: 'TRIAL', userCount: 9 }, '2026-01').amount).toBe(0);
    expect(monthlyInvoice({ id: 'h', name: 'E', subscriptionPlan: 'ENTERPRISE', userCount: 2 }, '2026-01').amount).toBe(
      100,
    );
    expect(planRevenue('BASIC', 10)).toBe(150);
    expect(nextMonthStart('2026-02')).toBe('2026-03-01');
  });
});

describe('dashboard counters', () => {
  it('moves a dataset between pipeline groups only when its group changes', () => {
    expect(pipelineDeltas('CREATED', 'UPLOADING')).toEqual({ queuedCount: 1 });
    expect(pipelineDeltas('UPLOADING', 'ANONYMIZING')).toEqual({ queuedCount: -1, processingCount: 1 });
    expect(pipelineDeltas('ANONYMIZING', 'CLASSIFYING')).toEqual({});
    expect(pipelineDeltas('PROCESSING', 'COMPLETE')).toEqual({ processingCount: -1, completedCount: 1 });
    expect(pipelineDeltas('FAILED', undefined)).toEqual({ failedCount: -1 });
    expect(percentOf(BYTES_PER_GB / 2, 1)).toBe(50);
  });
});

/** The PRO hospital h1 with 4 users and `storageUsedBytes` in use. */
function putNorthside(p: ReturnType<typeof ports>, storageUsedBytes: number) {
  return p.directory.putHospital({
    id: 'h1',
    slug: 'h1',
    name: 'Northside',
    subscriptionPlan: 'PRO',
    userCount: 4,
    storageUsedBytes,
    createdAt: 'x',
    updatedAt: 'x',
  });
}

describe('usage from the meters', () => {
  it("meters each task's seconds at its memory per hospital and team and day, and reads them against the limits", async () => {
    const p = ports();
    await putNorthside(p, 4500 * BYTES_PER_GB);
    // A run of two tasks: 200 s at 3008 MB and 400 s at 1024 MB, then its end.
    const d = await createDataset(NEW_DATASET, caller('TEAM_MEMBER'), p);
    const task = { hospitalId: 'h1', datasetId: d.id, endedAt: '2026-02-01T09:05:00.000Z' };
    await meterTask(p, { ...task, seconds: 200, memoryMb: 3008 });
    await meterTask(p, { ...task, seconds: 400, memoryMb: 1024 });
    await meterRun(p.organisation, { hospitalId: 'h1', teamId: d.teamId }, '2026-02-01T09:10:00.000Z');
    const usage = await getUsage({}, caller('HOSPITAL_ADMIN'), p);
    const h = usage.hospitals[0]!;
    expect(h.days).toEqual([
      {
        day: '2026-02-01',
        runs: 1,
        computeSeconds: 600,
        gbSeconds: (200 * 3008) / 1024 + 400,
        signInAttempts: 0,
        signIns: 0,
        storageBytesAdded: 0,
      },
    ]);
    // The team's meter has the same task time.
    const team = await p.organisation.listUsage('h1', d.teamId!, '2026-02-01', '2026-02-01');
    expect(team[0]).toMatchObject({ runs: 1, computeSeconds: 600 });
    expect(h.storage.percent).toBe(87.9);
    expect(h.storage.health).toBe('warning');
    expect(h.badge).toBe('Approaching Limits');
    // 10 run slots over the 10 hours of the month so far.
    expect(monthSeconds('2026-02', '2026-02-01T10:00:00.000Z')).toBe(36_000);
    expect(h.compute.percent).toBe(round(600 / 360_000));
    expect(h.invoice.amount).toBe(100);
    expect(h.nextBillDate).toBe('2026-03-01');
    expect(h.daysToNextBill).toBe(28);
    await expect(getUsage({ hospitalId: 'other' }, caller('HOSPITAL_ADMIN'), p)).rejects.toMatchObject({
      code: 'HOSPITAL_NOT_FOUND',
    });
    await expect(getUsage({}, caller('TEAM_LEAD'), p)).rejects.toThrow();
  });
});

describe('storage from what each dataset holds', () => {
  it('sums the objects under the dataset in every bucket and moves the counters by the difference', async () => {
    // Prepare: the upload counted 1,000 bytes; the run left 300 raw, 500 de-identified and 900 of assets.
    const p = ports();
    await putNorthside(p, 1000);
    const d = await createDataset(NEW_DATASET, caller('TEAM_MEMBER'), p);
    await p.datasets.update('h1', d.id, { storageCountedBytes: 1000 }, ['CREATED']);
    await p.objects.put('uploads', `${datasetPrefix('h1', d.id)}raw/0`, new Uint8Array(300));
    await p.objects.put('studies', `${datasetPrefix('h1', d.id)}1.2/1.2.3.dcm`, new Uint8Array(500));
    await p.objects.put('assets', `${datasetPrefix('h1', d.id)}1.2/volume-0.nii.gz`, new Uint8Array(900));
    await p.objects.put('assets', `${datasetPrefix('h1', 'another')}report.pdf`, new Uint8Array(50));
    const before = (await p.directory.getHospital('h1'))?.storageUsedBytes ?? 0;

    // Act
    const held = await meterDatasetStorage(p, (await p.datasets.get('h1', d.id))!, '2026-02-01');
    const again = await meterDatasetStorage(p, (await p.datasets.get('h1', d.id))!, '2026-02-01');

    // Assess: +700 once; metering again changes nothing.
    expect(held).toEqual({ uploads: 300, studies: 500, assets: 900 });
    expect(again).toEqual(held);
    expect(await p.datasets.get('h1', d.id)).toMatchObject({ storageCountedBytes: 1700, storageBytes: held });
    expect(((await p.directory.getHospital('h1'))?.storageUsedBytes ?? 0) - before).toBe(700);
    const days = await p.organisation.listUsage('h1', 'hospital', '2026-02-01', '2026-02-01');
    expect(days[0]?.storageBytesAdded).toBe(700);
  });
});

const round = (fraction: number) => Math.round(fraction * 1000) / 10;
