import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listFiles, requireSharedData } from '#tests/helpers/shared-data.ts';
import { createResearchDataset, runPipeline, uploadDirect, useHarnessOverSharedData } from './datasets-harness.ts';

const MEMBER = 'member@northside.demo.local';
const h = useHarnessOverSharedData();

describe('dataset pipeline through the real state machine definition', () => {
  it('builds FA, colour FA and tracts for a diffusion series with enough directions', async () => {
    // Prepare
    const dicom = listFiles(join(requireSharedData(), 'philips-dti-b2000/dicom'));
    const datasetId = await createResearchDataset(h, MEMBER, 'DTI research scan');
    const run = await uploadDirect(
      h,
      MEMBER,
      datasetId,
      dicom.map((p) => ({ path: basename(p), bytes: new Uint8Array(readFileSync(p)) })),
    );

    // Act
    const result = await runPipeline(run);

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
