import { describe, expect, it } from 'vitest';
import { readDevProtocols, tuningProtocols } from '#bench/classify/dev-sets.ts';
import { classifySeries, reviewHeaders, type SeriesAcquisition } from '#shared/dicom/classify/index.ts';
import { createDataset } from '#shared/domain/datasets/create-dataset.ts';
import { classifyOneSeries } from '#shared/domain/pipeline/classify-series.ts';
import { deidentifyStudy } from '#shared/domain/pipeline/deidentify-study.ts';
import type { PipelineDeps } from '#shared/domain/pipeline/deps.ts';
import { buildDicom } from '#tests/helpers/dicom-builder.ts';
import { SHARED_DATA, sharedDataPath } from '#tests/helpers/shared-data.ts';
import { caller, NEW_DATASET, ports } from '#tests/unit/domain/fakes.ts';

/** The header review (docs/classification.md#header-review): header facts that contradict an answer flag it. */
sharedDataPath('labels');
const protocols = tuningProtocols(readDevProtocols(SHARED_DATA));
const labelled = (source: string, pathEnd: string) => {
  const protocol = protocols.find((item) => item.source === source && item.examplePath.endsWith(pathEnd));
  if (!protocol) throw new Error(`no labelled protocol ${source} …${pathEnd}`);
  return protocol.acquisition;
};

/** An inversion-prepared 3D gradient echo (MPRAGE timing) with the given flip angle. */
const mprage = (flipAngle: number): SeriesAcquisition => ({
  repetitionTimeMs: 2300,
  echoTimeMs: 2.98,
  inversionTimeMs: 900,
  flipAngle,
  scanningSequence: ['GR', 'IR'],
  sequenceVariant: ['SP', 'MP'],
  mrAcquisitionType: '3D',
});

describe('reviewHeaders', () => {
  it('asks about a series answered T1 whose flip angle of 1° excites almost no signal (a noise scan)', () => {
    // Prepare: ds003563's noise run, with the acquisition of its T1w runs but a flip of 1°
    const noise = labelled('ds003563', '_Noise.json');
    // Act
    const answer = classifySeries(noise).classifiedType;
    const question = reviewHeaders(noise, answer);
    // Assess
    expect(answer).toBe('T1');
    expect(question).toBe(
      'Header review: a flip angle of 1° excites almost no signal; is this a noise or reference scan (OTHER) rather than T1?',
    );
  });

  it('asks about a series answered T2 whose ImageType names an ADC map', () => {
    // Prepare: ds004717's ADC map, whose sidecar records no diffusion encoding
    const adc = labelled('ds004717', 'sub-001_adc.json');
    // Act
    const answer = classifySeries(adc).classifiedType;
    // Assess
    expect(answer).toBe('T2');
    expect(reviewHeaders(adc, answer)).toMatch(/^Header review: ImageType \(0008,0008\) names a diffusion map \(ADC\)/);
  });

  it('asks nothing of an ordinary flip, of a noise scan answered OTHER, or of a diffusion map answered OTHER', () => {
    // Assess
    expect(reviewHeaders(mprage(9), 'T1')).toBeUndefined();
    expect(reviewHeaders(mprage(1), 'OTHER')).toBeUndefined();
    expect(reviewHeaders({ imageType: ['DERIVED', 'PRIMARY', 'ADC'] }, 'OTHER')).toBeUndefined();
    expect(reviewHeaders({ imageType: ['ORIGINAL', 'PRIMARY', 'M', 'ND'] }, 'T2')).toBeUndefined();
  });
});

describe('classifyOneSeries (the pipeline step) with the header review', () => {
  it('flags a series the header review asks about, with its question among the reasons', async () => {
    // Prepare: one MPRAGE series acquired with a flip of 1°, de-identified
    const p = ports();
    const deps = { ...p, pseudonymSecret: async () => 'pipeline-secret' } as PipelineDeps;
    const d = await createDataset(NEW_DATASET, caller('TEAM_MEMBER'), p);
    await p.datasets.transition('h1', d.id, ['CREATED'], 'UPLOADING');
    await p.objects.put(
      'uploads',
      `h1/${d.id}/raw/0`,
      buildDicom({
        extra: [
          { tag: '00180020', vr: 'CS', value: 'GR\\IR' },
          { tag: '00180021', vr: 'CS', value: 'SP\\MP' },
          { tag: '00180023', vr: 'CS', value: '3D' },
          { tag: '00180080', vr: 'DS', value: '2300' },
          { tag: '00180081', vr: 'DS', value: '2.98' },
          { tag: '00180082', vr: 'DS', value: '900' },
          { tag: '00181314', vr: 'DS', value: '1' },
        ],
      }),
    );
    const input = { hospitalId: 'h1', datasetId: d.id, runId: 'r1' };
    await deidentifyStudy(input, deps);
    await p.datasets.transition('h1', d.id, ['ANONYMIZING'], 'CLASSIFYING');
    const [series] = await p.datasets.listSeries('h1', d.id);
    // Act
    await classifyOneSeries({ ...input, seriesId: series!.id }, deps);
    // Assess
    const classified = (await p.datasets.listSeries('h1', d.id))[0]!;
    expect(classified.classification).toMatchObject({ source: 'AI', classifiedType: 'T1' });
    expect(classified.lowConfidence).toBe(true);
    expect(classified.classification?.reasons.at(-1)).toMatch(/^Header review: a flip angle of 1° excites almost no/);
  });
});
