import { describe, expect, it } from 'vitest';
import { createDataset } from '#shared/domain/datasets/create-dataset.ts';
import { releaseSeries } from '#shared/domain/datasets/release-series.ts';
import type { DatasetStatus } from '#shared/vocabulary/datasets.ts';
import { caller, NEW_DATASET, ports } from '#tests/unit/domain/fakes.ts';

async function heldSeries(status: DatasetStatus, held = true) {
  const p = ports();
  const d = await createDataset(NEW_DATASET, caller('TEAM_MEMBER'), p);
  await p.datasets.update('h1', d.id, { status }, ['CREATED']);
  await p.datasets.putSeries({
    id: '2.25.1',
    datasetId: d.id,
    hospitalId: 'h1',
    seriesInstanceUID: '2.25.1',
    description: 'Screenshot',
    seriesNumber: 1,
    modality: 'MR',
    sliceCount: 1,
    sizeBytes: 1,
    selected: true,
    classification: null,
    ...(held ? { burnedInText: { reasons: ['SECONDARY_CAPTURE' as const] } } : {}),
    createdAt: '',
  });
  return { p, datasetId: d.id };
}

describe('releasing a series held for burned-in text', () => {
  it('refuses a team member, and answers 404 to a lead of another team', async () => {
    const { p, datasetId } = await heldSeries('COMPLETE');
    await expect(releaseSeries(datasetId, '2.25.1', caller('TEAM_MEMBER'), p)).rejects.toMatchObject({
      code: 'ACCESS_DENIED',
    });
    await expect(releaseSeries(datasetId, '2.25.1', caller('TEAM_LEAD', { teamId: 't2' }), p)).rejects.toMatchObject({
      code: 'DATASET_NOT_FOUND',
    });
    expect((await p.datasets.listSeries('h1', datasetId))[0]!.burnedInText!.releasedAt).toBeUndefined();
  });

  it('processes a COMPLETE dataset again at once, audited', async () => {
    const { p, datasetId } = await heldSeries('COMPLETE');
    const series = await releaseSeries(datasetId, '2.25.1', caller('TEAM_LEAD'), p);
    expect(series.burnedInText).toEqual({
      reasons: ['SECONDARY_CAPTURE'],
      releasedAt: '2026-02-01T10:00:00.000Z',
      releasedByUserId: 'user-team_lead',
    });
    expect((await p.datasets.get('h1', datasetId))!.status).toBe('UPLOADING');
    expect(p.pipeline.started).toHaveLength(1);
    expect(p.audit.events.map((e) => e.action)).toEqual(expect.arrayContaining(['SERIES_RELEASED', 'STATUS_CHANGED']));
    // A second release changes nothing.
    await releaseSeries(datasetId, '2.25.1', caller('HOSPITAL_ADMIN'), p);
    expect(p.pipeline.started).toHaveLength(1);
  });

  it('marks a FAILED dataset for its next retry, and refuses while the pipeline is writing', async () => {
    const failed = await heldSeries('FAILED');
    await releaseSeries(failed.datasetId, '2.25.1', caller('HOSPITAL_ADMIN'), failed.p);
    expect((await failed.p.datasets.get('h1', failed.datasetId))!.status).toBe('FAILED');
    expect(failed.p.pipeline.started).toHaveLength(0);

    const running = await heldSeries('PROCESSING');
    await expect(releaseSeries(running.datasetId, '2.25.1', caller('TEAM_LEAD'), running.p)).rejects.toMatchObject({
      code: 'INVALID_STATE',
    });
    const notHeld = await heldSeries('COMPLETE', false);
    await expect(releaseSeries(notHeld.datasetId, '2.25.1', caller('TEAM_LEAD'), notHeld.p)).rejects.toMatchObject({
      code: 'INVALID_STATE',
    });
  });
});
