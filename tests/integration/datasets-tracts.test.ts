import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listFiles, requireSharedData } from '#tests/helpers/shared-data.ts';
import { createResearchDataset, runPipeline, useHarnessOverSharedData } from './datasets-harness.ts';

const MEMBER = 'member@northside.demo.local';
const h = useHarnessOverSharedData();

describe('dataset pipeline through the real state machine definition', () => {
  it('builds FA, colour FA and tracts for a diffusion series with enough directions', async () => {
    // Prepare: the raw files go straight into the store (the upload API is covered in datasets-pipeline.test.ts); the session completes through the API.
    const dicom = listFiles(join(requireSharedData(), 'philips-dti-b2000/dicom'));
    const datasetId = await createResearchDataset(h, MEMBER, 'DTI research scan');
    const session = await h.call('POST', `/api/datasets/${datasetId}/upload/session`, {
      as: MEMBER,
      body: { files: dicom.map((p) => ({ path: basename(p), sizeBytes: 1 })) },
    });
    for (const [fileIndex, path] of dicom.entries()) {
      await h.objects.put(
        'uploads',
        `hosp-northside/${datasetId}/raw/${fileIndex}`,
        new Uint8Array(readFileSync(path)),
      );
      await h.deps.uploads.markFileComplete('hosp-northside', session.body.sessionId, fileIndex);
    }
    expect((await h.call('POST', `/api/uploads/${session.body.sessionId}/complete`, { as: MEMBER })).status).toBe(200);

    // Act
    const result = await runPipeline(h.started.find((s) => s.datasetId === datasetId)!);

    // Assess
    expect(result).toEqual({ ok: true });
    const detail = await h.call('GET', `/api/datasets/${datasetId}`, { as: MEMBER });
    expect(detail.body.status).toBe('COMPLETE');
    const labels = detail.body.processedAssets.map((a: { type: string; label: string }) => `${a.type}:${a.label}`);
    expect(labels).toEqual(
      expect.arrayContaining(['VOLUME:FA map', 'VOLUME:Colour FA map', 'TRACT:Tractography', 'REPORT:Dataset report']),
    );
    const tract = detail.body.processedAssets.find((a: { type: string }) => a.type === 'TRACT');
    expect(tract.metadata.streamlines).toBeGreaterThan(100);
    const dwi = detail.body.series.find((s: { classification: { classifiedType: string } | null }) =>
      ['DTI', 'DWI'].includes(s.classification?.classifiedType ?? ''),
    );
    expect(dwi).toBeDefined();
  }, 300_000);
});
