import { describe, expect, it } from 'vitest';
import {
  DEV_SETS,
  drawLockbox,
  LOCKBOX,
  lockboxProtocols,
  readDevRows,
  tuningProtocols,
} from '#bench/classify/dev-sets.ts';
import { acquisitionFromRow, uniqueProtocols, type LabelledRow } from '#bench/classify/evaluation.ts';
import { classRight, suffixRight } from '#bench/classify/loso.ts';
import { canonicalSuffix } from '#shared/dicom/classify/bids-labels.ts';
import { classifySeries } from '#shared/dicom/classify/index.ts';
import { MISSING_T1_QUESTION, reviewStudy } from '#shared/dicom/classify/study.ts';
import { SHARED_DATA } from '#tests/helpers/shared-data.ts';

/**
 * The third round of the classifier (docs/classification.md): the third labelled set, the lockbox, and the rules for
 * the families the unseen OpenNeuro sets showed. Fixtures are rows of the labelled CSVs of sources outside the lockbox.
 */
const rows = readDevRows(SHARED_DATA);
const locked = new Set(LOCKBOX.sources);

/** The first row of a tuning source matching every given column (exact) and the description pattern. */
function row(source: string, columns: Record<string, string>, description?: RegExp): LabelledRow {
  expect(locked.has(source), `${source} is locked away`).toBe(false);
  const found = rows.find(
    (item) =>
      item.source === source &&
      Object.entries(columns).every(([column, value]) => item[column] === value) &&
      (!description || description.test(item.SeriesDescription ?? '')),
  );
  if (!found) throw new Error(`no row of ${source} with ${JSON.stringify(columns)} ${description ?? ''}`);
  return found;
}

describe('development sets and the lockbox', () => {
  it('reads the three labelled sets', () => {
    // Assess
    expect(DEV_SETS).toContain('labels/dev-sidecars-openneuro-2.csv');
    expect(new Set(rows.map((item) => item.source)).size).toBe(84);
  });

  it('locks away the third of the sources its seed draws, as recorded in lockbox.json', () => {
    // Act
    const drawn = drawLockbox(
      rows.map((item) => item.source ?? ''),
      LOCKBOX.seed,
    );
    // Assess
    expect(drawn).toEqual(LOCKBOX.sources);
    expect(drawn).toHaveLength(28);
  });

  it('splits protocols by whole source between tuning and the lockbox', () => {
    // Act
    const protocols = uniqueProtocols(rows);
    const tuning = tuningProtocols(protocols);
    const lockbox = lockboxProtocols(protocols);
    // Assess
    expect(tuning.length + lockbox.length).toBe(protocols.length);
    expect(tuning.some((protocol) => locked.has(protocol.source))).toBe(false);
    expect(new Set(lockbox.map((protocol) => protocol.source))).toEqual(locked);
  });
});

describe('scoring', () => {
  it('leaves private suffixes (GRE, T1ce, apt, TDP) out of suffix scoring and keeps BIDS ones', () => {
    // Assess
    for (const suffix of ['GRE', 'T1ce', 'apt', 'TDP', 'INV1']) expect(canonicalSuffix(suffix)).toBeUndefined();
    for (const suffix of ['T2starw', 'cbv', 'noRF', 'UNIT1']) expect(canonicalSuffix(suffix)).toBe(suffix);
  });

  it('scores FLAIR as right, class and suffix, for a T2-FLAIR filed as _T2w', () => {
    // Prepare
    const [protocol] = uniqueProtocols([
      rows.find((item) => item.suffix === 'T2w' && item.target_class === 'FLAIR' && !locked.has(item.source ?? ''))!,
    ]);
    const answer = { classifiedType: 'FLAIR' as const, bids: { datatype: 'anat', suffix: 'FLAIR' } };
    // Assess
    expect(classRight(answer, protocol!)).toBe(true);
    expect(suffixRight(answer, protocol!)).toBe(true);
  });

  it('accepts DWI and DTI for a DWI_or_DTI label', () => {
    // Prepare
    const labelled = rows.find((item) => item.target_class === 'DWI_or_DTI');
    const [protocol] = uniqueProtocols([labelled!]);
    // Assess
    for (const classifiedType of ['DWI', 'DTI'] as const)
      expect(classRight({ classifiedType, bids: { datatype: 'dwi', suffix: 'dwi' } }, protocol!)).toBe(true);
  });
});

describe('rules for the families of the unseen sets', () => {
  it('reads a multi-echo gradient echo named SWI as SWI, and the same echoes unnamed as a mapping set', () => {
    // Prepare: a ds004712 SWAN file, with its study's echo times put back together.
    const swi = row('ds004712', {}, /^SWI SWAN$/);
    const acquisition = { ...acquisitionFromRow(swi), echoTimesMs: [5, 10, 15, 20, 25, 30, 35] };
    // Act
    const named = classifySeries(acquisition);
    const unnamed = classifySeries(acquisition, { ignoreDescriptions: true });
    // Assess
    expect(named.classifiedType).toBe('SWI');
    expect(unnamed).toMatchObject({ classifiedType: 'OTHER', bids: { suffix: 'MEGRE' } });
  });

  it('reads a Philips spin-echo EPI field map named FM_ (no EPI in ScanningSequence) as a field map, not T2w', () => {
    // Prepare
    const fieldMap = row('ds003346', { suffix: 'epi', ScanningSequence: 'SE' }, /^FM_DTI/);
    // Act
    const result = classifySeries(acquisitionFromRow(fieldMap));
    // Assess
    expect(result).toMatchObject({ classifiedType: 'OTHER', bids: { datatype: 'fmap', suffix: 'epi' } });
  });

  it('reads a functional run named "fM" as BOLD, not as a field map', () => {
    // Prepare
    const bold = row('ds005003', { suffix: 'bold' }, /fM REST/);
    // Act
    const result = classifySeries(acquisitionFromRow(bold));
    // Assess
    expect(result.bids.suffix).toBe('bold');
  });

  it('reads an inversion-prepared 3D EPI (VASO) as cbv from the physics alone', () => {
    // Prepare
    const vaso = row('ds006212', { suffix: 'cbv' });
    // Act
    const result = classifySeries(acquisitionFromRow(vaso), { ignoreDescriptions: true });
    // Assess
    expect(result).toMatchObject({ classifiedType: 'OTHER', bids: { datatype: 'func', suffix: 'cbv' } });
  });

  it('reads 3D-EPI BOLD timing with no sequence recorded (TE 31 ms, flip 10°, a volume every 0.6 s) as bold', () => {
    // Prepare
    const bold = row('ds005366', { suffix: 'bold', FlipAngle: '10' });
    // Act
    const result = classifySeries(acquisitionFromRow(bold));
    // Assess
    expect(result).toMatchObject({ classifiedType: 'OTHER', bids: { suffix: 'bold' } });
  });

  it('reads a bare 3D turbo-field-echo timing (TR 6.2 ms, flip 5°) as T1-weighted', () => {
    // Prepare
    const t1 = row('ds005366', { suffix: 'T1w', RepetitionTime: '0.0062' });
    // Act
    const result = classifySeries(acquisitionFromRow(t1));
    // Assess
    expect(result.classifiedType).toBe('T1');
  });

  it('reads a 2D gradient echo named T1_gre (TR 675 ms, flip 90°) as T1, not as T2*', () => {
    // Prepare
    const t1 = row('ds003949', { suffix: 'T1w' }, /^T1_gre_tra/);
    // Act
    const result = classifySeries(acquisitionFromRow(t1));
    // Assess
    expect(result.classifiedType).toBe('T1');
  });

  it('keeps a b=0 run that records its b-values as diffusion, whatever its pepolar name', () => {
    // Prepare
    const b0 = row('ds004712', { suffix: 'dwi', bvals: '0' }, /pepolar/);
    // Act
    const result = classifySeries(acquisitionFromRow(b0));
    // Assess
    expect(result).toMatchObject({ classifiedType: 'DWI', bids: { suffix: 'dwi' } });
  });

  it('reads the b=0 run of a protocol named DTI as DWI (its references hold no direction)', () => {
    // Prepare
    const b0 = row('ds007345', { suffix: 'dwi', bvals: '0' }, /^DTI_b0/);
    // Act
    const result = classifySeries(acquisitionFromRow(b0));
    // Assess
    expect(result.classifiedType).toBe('DWI');
  });
});

describe('study review: a study with no T1-weighted series', () => {
  it('asks whether the MP2RAGE uniform image of a study without T1 is its T1-weighted anatomy', () => {
    // Prepare: a ds003642 session: two inversion images and the uniform image its dataset files as T1w.
    const session = rows.filter(
      (item) => item.source === 'ds003642' && item.path?.startsWith('sub-') && item.path.includes('/anat/'),
    );
    const first = session[0]!.path!.split('/')[0]!;
    const study = session.filter((item) => item.path!.startsWith(`${first}/`));
    const answers = study.map((item) => {
      const result = classifySeries(acquisitionFromRow(item));
      return { classifiedType: result.classifiedType, suffix: result.bids.suffix, label: item.suffix };
    });
    // Act
    const reasons = reviewStudy(answers);
    // Assess
    expect(answers.some((answer) => answer.classifiedType === 'T1')).toBe(false);
    answers.forEach((answer, index) =>
      expect(reasons[index]).toBe(answer.suffix === 'UNIT1' ? MISSING_T1_QUESTION : undefined),
    );
    expect(answers.filter((answer) => answer.suffix === 'UNIT1').map((answer) => answer.label)).toEqual(['T1w']);
  });

  it('asks about the inversion images where a study holds no uniform image, and leaves a study with a T1 alone', () => {
    // Act
    const inversionsOnly = reviewStudy([
      { classifiedType: 'OTHER', suffix: 'MP2RAGE' },
      { classifiedType: 'T2', suffix: 'T2w' },
    ]);
    const withT1 = reviewStudy([
      { classifiedType: 'OTHER', suffix: 'UNIT1' },
      { classifiedType: 'T1', suffix: 'T1w' },
    ]);
    // Assess
    expect(inversionsOnly).toEqual([MISSING_T1_QUESTION, undefined]);
    expect(withT1).toEqual([undefined, undefined]);
  });
});
