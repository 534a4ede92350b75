import { describe, expect, it } from 'vitest';
import { createDataset } from '#shared/domain/datasets/create-dataset.ts';
import type { SeriesRecord } from '#shared/domain/datasets/ports.ts';
import { reviewStudyClassifications } from '#shared/domain/pipeline/classify-series.ts';
import type { PipelineDeps } from '#shared/domain/pipeline/deps.ts';
import { studyKeys } from '#shared/domain/object-keys.ts';
import { LOCKBOX, readDevRows } from '#bench/classify/dev-sets.ts';
import { acquisitionFromRow } from '#bench/classify/evaluation.ts';
import {
  MISSING_T1_QUESTION,
  POST_CONTRAST_ALONE_QUESTION,
  POST_CONTRAST_QUESTION,
  POST_CONTRAST_VOLUME_QUESTION,
  reviewStudy,
  type StudySeries,
} from '#shared/dicom/classify/study.ts';
import { classifySeries, type ClassifiedType } from '#shared/dicom/classify/index.ts';
import { buildDicom } from '#tests/helpers/dicom-builder.ts';
import { SHARED_DATA } from '#tests/helpers/shared-data.ts';
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

describe('reviewStudy: a lone T1 whose contrast only its description states', () => {
  it('asks about the only T1 of a labelled session, post-contrast by its description and recording no agent', () => {
    // Prepare: a ds003949 session (a tuning source) holding one T1, described "…_Gd", and an angiography series.
    expect(LOCKBOX.sources).not.toContain('ds003949');
    const session = readDevRows(SHARED_DATA).filter(
      (row) => row.source === 'ds003949' && row.path?.startsWith('sub-316/ses-20110219/'),
    );
    const answers = session.map((row) => {
      const acquisition = acquisitionFromRow(row);
      const result = classifySeries(acquisition);
      return { classifiedType: result.classifiedType, suffix: result.bids.suffix, acquisition };
    });
    // Act
    const reasons = reviewStudy(answers);
    // Assess
    expect(answers.map((answer) => answer.classifiedType).sort()).toEqual(['OTHER', 'T1_CONTRAST']);
    answers.forEach((answer, index) =>
      expect(reasons[index]).toBe(answer.classifiedType === 'T1_CONTRAST' ? POST_CONTRAST_ALONE_QUESTION : undefined),
    );
  });

  it('leaves a lone T1 alone where its agent is recorded, its acquisition unknown, or its pre-contrast pair present', () => {
    // Prepare
    const stated: StudySeries = {
      classifiedType: 'T1_CONTRAST',
      acquisition: { seriesDescription: 'T1 post Gd', flipAngle: 90 },
    };
    const agent: StudySeries = { ...stated, acquisition: { ...stated.acquisition, contrastAgent: 'Gadobutrol' } };
    // Act
    const withAgent = reviewStudy([agent, series('FLAIR')]);
    const unknown = reviewStudy([{ classifiedType: 'T1_CONTRAST' }]);
    const paired = reviewStudy([series('T1', '2D'), stated]);
    const alone = reviewStudy([series('T2'), stated]);
    // Assess
    expect(withAgent).toEqual([undefined, undefined]);
    expect(unknown).toEqual([undefined]);
    expect(paired).toEqual([undefined, undefined]);
    expect(alone).toEqual([undefined, POST_CONTRAST_ALONE_QUESTION]);
  });
});

describe('reviewStudyClassifications (the pipeline step)', () => {
  async function study(types: [ClassifiedType, 'AI' | 'MANUAL', string, string?, string?][]) {
    const p = ports();
    const deps = { ...p, pseudonymSecret: async () => 'secret' } as PipelineDeps;
    const d = await createDataset(NEW_DATASET, caller('TEAM_MEMBER'), p);
    for (const [index, [classifiedType, source, acquisitionType, suffix = 'T1w', agent]] of types.entries()) {
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
        buildDicom({
          extra: [
            { tag: '00180023', vr: 'CS', value: acquisitionType },
            // ContrastBolusAgent (0018,0010), where the series records one.
            ...(agent === undefined ? [] : [{ tag: '00180010', vr: 'LO', value: agent }]),
          ],
        }),
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

  it('asks about the only T1 of a study when its contrast rests on its description, not when the agent is recorded', async () => {
    // Prepare
    const described = await study([
      ['T1_CONTRAST', 'AI', '3D'],
      ['T2', 'AI', '2D', 'T2w'],
    ]);
    const recorded = await study([
      ['T1_CONTRAST', 'AI', '3D', 'T1w', 'Gadobutrol'],
      ['T2', 'AI', '2D', 'T2w'],
    ]);
    // Act
    await reviewStudyClassifications(described.input, described.deps);
    await reviewStudyClassifications(recorded.input, recorded.deps);
    // Assess
    const [post, t2] = await described.p.datasets.listSeries('h1', described.input.datasetId);
    expect(post).toMatchObject({
      lowConfidence: true,
      classification: { reasons: ['physics', POST_CONTRAST_ALONE_QUESTION], classifiedType: 'T1_CONTRAST' },
    });
    expect(t2?.lowConfidence).toBe(false);
    const withAgent = await recorded.p.datasets.listSeries('h1', recorded.input.datasetId);
    expect(withAgent.every((s) => s.lowConfidence === false)).toBe(true);
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
