import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireSharedData } from '#tests/helpers/shared-data.ts';
import { createResearchDataset, runPipeline, uploadDirect, useHarnessOverSharedData } from './datasets-harness.ts';

const MEMBER = 'member@northside.demo.local';
const h = useHarnessOverSharedData();

const filesOf = (...paths: string[]) =>
  paths.map((path) => ({ path: `study/${basename(path)}`, bytes: new Uint8Array(readFileSync(path)) }));

describe('series run in parallel through the real state machine definition (docs/pipeline.md#series-in-parallel)', () => {
  it('a series whose branch fails keeps its reason while the other series complete and the dataset ends COMPLETE', async () => {
    // Prepare: a CT slice and two PET slices, three series; every read of one series' de-identified files fails.
    const data = requireSharedData();
    const files = filesOf(
      join(data, 'ct-small/CT_small.dcm'),
      join(data, 'pet-slices/1.dcm'),
      join(data, 'pet-slices/2.dcm'),
    );
    const datasetId = await createResearchDataset(h, MEMBER, 'CT and PET slices');
    const run = await uploadDirect(h, MEMBER, datasetId, files);
    const original = h.objects.get.bind(h.objects);
    let doomed: string | undefined;
    h.objects.get = async (bucket, key) => {
      if (bucket === 'studies') {
        // A series' files (<hospital>/<dataset>/<series>/…) or its header bundle (…/headers/<series>.bin).
        const [, , folder, name] = key.split('/');
        const seriesUid = folder === 'headers' ? name!.replace(/\.bin$/, '') : folder!;
        doomed ??= seriesUid;
        if (seriesUid === doomed) throw new TypeError('simulated engine crash on PatientName=DOE^JOHN');
      }
      return original(bucket, key);
    };

    // Act
    let result: Awaited<ReturnType<typeof runPipeline>>;
    try {
      result = await runPipeline(run);
    } finally {
      h.objects.get = original;
    }

    // Assess
    expect(result).toEqual({ ok: true });
    const detail = await h.call('GET', `/api/datasets/${datasetId}`, { as: MEMBER });
    expect(detail.body.status).toBe('COMPLETE');
    expect(detail.body.failureReason).toBeUndefined();
    expect(detail.body.series).toHaveLength(3);
    const failed = detail.body.series.filter((s: { failureReason?: string }) => s.failureReason);
    const done = detail.body.series.filter((s: { failureReason?: string }) => !s.failureReason);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ seriesInstanceUID: doomed, failureReason: 'Processing failed (TypeError)' });
    expect(done).toHaveLength(2);
    for (const series of done) expect(series.classification).toMatchObject({ source: 'AI' });
    const assetsOf = (seriesId: string) =>
      detail.body.processedAssets
        .filter((a: { seriesId?: string }) => a.seriesId === seriesId)
        .map((a: { type: string }) => a.type)
        .sort();
    for (const series of done) expect(assetsOf(series.id)).toEqual(['THUMBNAIL', 'VOLUME']);
    expect(assetsOf(failed[0].id)).toEqual([]);
    expect(detail.body.processedAssets.some((a: { type: string }) => a.type === 'REPORT')).toBe(true);
    const history = await h.call('GET', `/api/datasets/${datasetId}/history`, { as: MEMBER });
    const seriesFailed = history.body.items.filter((e: { action: string }) => e.action === 'SERIES_FAILED');
    expect(seriesFailed).toHaveLength(1);
    expect(seriesFailed[0].details).toMatchObject({ seriesId: failed[0].id, reason: 'Processing failed (TypeError)' });
    expect(JSON.stringify(history.body)).not.toContain('DOE');
    const statuses = history.body.items
      .filter((e: { action: string }) => e.action === 'STATUS_CHANGED')
      .map((e: { details: { to: string } }) => e.details.to);
    expect(statuses).toEqual(['UPLOADING', 'ANONYMIZING', 'CLASSIFYING', 'PROCESSING', 'COMPLETE']);
  }, 120_000);
});
