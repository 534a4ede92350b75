import { describe, expect, it } from 'vitest';
import { createDataset } from '#shared/domain/datasets/create-dataset.ts';
import type { SeriesRecord } from '#shared/domain/datasets/ports.ts';
import { reviewStudyClassifications } from '#shared/domain/pipeline/classify-series.ts';
import type { PipelineDeps } from '#shared/domain/pipeline/deps.ts';
import { studyKeys } from '#shared/domain/object-keys.ts';
import {
  MISSING_T1_QUESTION,
  POST_CONTRAST_QUESTION,
  POST_CONTRAST_VOLUME_QUESTION,
  reviewStudy,
  type StudySeries,
} from '#shared/dicom/classify/study.ts';
import type { ClassifiedType } from '#shared/dicom/classify/index.ts';
import { buildDicom } from '#tests/helpers/dicom-builder.ts';
import { caller, NEW_DATASET, ports } from '#tests/unit/domain/fakes.ts';

/** The study review of a study's classifications (docs/classification.md#study-review). */
const series = (classifiedType: ClassifiedType, mrAcquisitionType?: string): StudySeries => ({
  classifiedType,
  acquisition: mrAcquisitionType ? { mrAcquisitionType } : {},
});

describe('reviewStudy', () => {
  it('asks about both T1s of a study where neither states contrast', () => {
    // Act
    const reasons = reviewStudy([series('FLAIR'), series('T1', '3D'), series('T2'), series('T1', '3D')]);
    // Assess
    expect(reasons).toEqual([undefined, POST_CONTRAST_QUESTION, undefined, POST_CONTRAST_QUESTION]);
  });

  it('asks only about the 3D volume when the other T1 is 2D', () => {
    // Act
    const reasons = reviewStudy([series('T1', '2D'), series('T1', '3D'), series('FLAIR', '3D')]);
    // Assess
    expect(reasons).toEqual([undefined, POST_CONTRAST_VOLUME_QUESTION, undefined]);
  });

  it('asks nothing where a T1 states its contrast, where there is one T1, or three', () => {
    // Assess
    expect(reviewStudy([series('T1', '2D'), series('T1_CONTRAST', '3D')])).toEqual([undefined, undefined]);
    expect(reviewStudy([series('T1'), series('T2')])).toEqual([undefined, undefined]);
    expect(reviewStudy([series('T1'), series('T1'), series('T1')])).toEqual([undefined, undefined, undefined]);
    expect(reviewStudy([])).toEqual([]);
  });
});

describe('reviewStudyClassifications (the pipeline step)', () => {
  async function study(types: [ClassifiedType, 'AI' | 'MANUAL', string, string?][]) {
    const p = ports();
    const deps = { ...p, pseudonymSecret: async () => 'secret' } as PipelineDeps;
    const d = await createDataset(NEW_DATASET, caller('TEAM_MEMBER'), p);
    for (const [index, [classifiedType, source, acquisitionType, suffix = 'T1w']] of types.entries()) {
      const uid = `1.2.826.0.1.3680043.9.9999.3.${index + 1}`;
      const record: SeriesRecord = {
        id: `s${index + 1}`,
        hospitalId: 'h1',
        datasetId: d.id,
        seriesInstanceUID: uid,
        description: '',
        seriesNumber: index + 1,
        modality: 'MR',
        sliceCount: 1,
        sizeBytes: 1,
        selected: true,
        lowConfidence: false,
        classification: {
          classifiedType,
          confidence: 0.99,
          source,
          reasons: ['physics'],
          bids: { datatype: 'anat', suffix },
          createdAt: '2026-01-01T00:00:00.000Z',
        },
        createdAt: '2026-01-01T00:00:00.000Z',
      };
      await p.datasets.putSeries(record);
      await p.objects.put(
        'studies',
        `${studyKeys.series('h1', d.id, uid)}1.dcm`,
        buildDicom({ extra: [{ tag: '00180023', vr: 'CS', value: acquisitionType }] }),
      );
    }
    return { p, deps, input: { hospitalId: 'h1', datasetId: d.id, runId: 'r1' } };
  }

  it('flags the model answer it asks about, adds the question to its reasons once, and audits it', async () => {
    // Prepare
    const { p, deps, input } = await study([
      ['T1', 'AI', '2D'],
      ['T1', 'AI', '3D'],
    ]);
    // Act
    await reviewStudyClassifications(input, deps);
    await reviewStudyClassifications(input, deps);
    // Assess
    const [pre, post] = await p.datasets.listSeries('h1', input.datasetId);
    expect(pre).toMatchObject({ lowConfidence: false, classification: { reasons: ['physics'] } });
    expect(post).toMatchObject({
      lowConfidence: true,
      classification: { reasons: ['physics', POST_CONTRAST_VOLUME_QUESTION], source: 'AI', classifiedType: 'T1' },
    });
    const audited = p.audit.events.filter((e) => e.action === 'SERIES_CLASSIFIED_AI');
    expect(audited).toHaveLength(1);
    expect(audited[0]!.details).toMatchObject({ studyReview: true, seriesIds: ['s2'] });
  });

  it("leaves a person's label alone and counts a person's T1 + contrast as the statement", async () => {
    // Prepare
    const manual = await study([
      ['T1', 'MANUAL', '3D'],
      ['T1', 'MANUAL', '3D'],
    ]);
    const stated = await study([
      ['T1', 'AI', '3D'],
      ['T1_CONTRAST', 'MANUAL', '3D'],
    ]);
    // Act
    await reviewStudyClassifications(manual.input, manual.deps);
    await reviewStudyClassifications(stated.input, stated.deps);
    // Assess
    for (const { p, input } of [manual, stated]) {
      const all = await p.datasets.listSeries('h1', input.datasetId);
      expect(all.every((s) => s.lowConfidence === false)).toBe(true);
      expect(p.audit.events.filter((e) => e.action === 'SERIES_CLASSIFIED_AI')).toEqual([]);
    }
  });

  it('asks whether the MP2RAGE uniform image of a study with no T1-weighted series is its T1', async () => {
    // Prepare
    const { p, deps, input } = await study([
      ['OTHER', 'AI', '3D', 'MP2RAGE'],
      ['OTHER', 'AI', '3D', 'UNIT1'],
      ['T2', 'AI', '2D', 'T2w'],
    ]);
    // Act
    await reviewStudyClassifications(input, deps);
    // Assess
    const [inversion, uniform, t2] = await p.datasets.listSeries('h1', input.datasetId);
    expect(uniform).toMatchObject({
      lowConfidence: true,
      classification: { reasons: ['physics', MISSING_T1_QUESTION] },
    });
    expect(inversion?.lowConfidence).toBe(false);
    expect(t2?.lowConfidence).toBe(false);
  });
});
