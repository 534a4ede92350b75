import { describe, expect, it } from 'vitest';
import {
  classifySeries,
  isLowConfidence,
  LOW_CONFIDENCE_THRESHOLD,
  type ClassifiedType,
  type SeriesAcquisition,
} from '#shared/dicom/classify/index.ts';
import { DEFAULT_MODEL } from '#shared/dicom/classify/model.ts';
import { countDirections, parseBvec } from '#shared/dicom/classify/diffusion.ts';
import { acquisitionFromSidecar } from '#shared/dicom/classify/from-sidecar.ts';

const MPRAGE: SeriesAcquisition = {
  modality: 'MR',
  repetitionTimeMs: 2300,
  echoTimeMs: 2.98,
  inversionTimeMs: 900,
  flipAngle: 9,
  scanningSequence: ['GR', 'IR'],
  sequenceVariant: ['SK', 'SP', 'MP'],
  mrAcquisitionType: '3D',
};
const T2_TSE: SeriesAcquisition = {
  modality: 'MR',
  repetitionTimeMs: 4000,
  echoTimeMs: 100,
  flipAngle: 150,
  scanningSequence: ['SE'],
  sequenceVariant: ['SK', 'SP', 'OSP'],
  mrAcquisitionType: '2D',
};
const FLAIR_2D: SeriesAcquisition = {
  modality: 'MR',
  repetitionTimeMs: 9000,
  echoTimeMs: 120,
  inversionTimeMs: 2500,
  flipAngle: 150,
  scanningSequence: ['SE', 'IR'],
  mrAcquisitionType: '2D',
};
const SWI_3D: SeriesAcquisition = {
  modality: 'MR',
  repetitionTimeMs: 28,
  echoTimeMs: 20,
  flipAngle: 15,
  scanningSequence: ['GR'],
  imageType: ['ORIGINAL', 'PRIMARY', 'M', 'SWI'],
  mrAcquisitionType: '3D',
};
const DTI_64: SeriesAcquisition = {
  modality: 'MR',
  repetitionTimeMs: 8400,
  echoTimeMs: 90,
  flipAngle: 90,
  scanningSequence: ['EP'],
  bValues: [0, ...Array(64).fill(1000)],
  diffusionDirections: 64,
  imageType: ['ORIGINAL', 'PRIMARY', 'DIFFUSION', 'NONE'],
};

describe('classifySeries: acquisition physics', () => {
  it.each<[string, SeriesAcquisition, ClassifiedType, string]>([
    ['MPRAGE (IR gradient echo, short TE)', MPRAGE, 'T1', 'T1w'],
    [
      'GE IR-SPGR (TI 400, TR 7 ms)',
      {
        modality: 'MR',
        repetitionTimeMs: 6.96,
        echoTimeMs: 2.83,
        inversionTimeMs: 400,
        flipAngle: 11,
        scanningSequence: ['GR'],
        sequenceVariant: ['SS', 'SP', 'SK'],
        mrAcquisitionType: '3D',
      },
      'T1',
      'T1w',
    ],
    [
      'spoiled 3D gradient echo, TR 25 ms, flip 30°',
      {
        modality: 'MR',
        repetitionTimeMs: 25,
        echoTimeMs: 4.6,
        flipAngle: 30,
        scanningSequence: ['GR'],
        mrAcquisitionType: '3D',
      },
      'T1',
      'T1w',
    ],
    [
      'spoiled 3D gradient echo timed as time-of-flight (TR 20 ms, TE 4 ms, flip 20°)',
      {
        modality: 'MR',
        repetitionTimeMs: 20,
        echoTimeMs: 4,
        flipAngle: 20,
        scanningSequence: ['GR'],
        mrAcquisitionType: '3D',
      },
      'OTHER',
      'angio',
    ],
    [
      'Philips FFE timed as time-of-flight (TR 18 ms, flip 18°)',
      {
        modality: 'MR',
        repetitionTimeMs: 18,
        echoTimeMs: 3.45,
        flipAngle: 18,
        scanningSequence: ['GR'],
        sequenceVariant: ['SP'],
        mrAcquisitionType: '3D',
        imageType: ['ORIGINAL', 'PRIMARY', 'M', 'FFE', 'M', 'FFE'],
      },
      'OTHER',
      'angio',
    ],
    [
      'SequenceVariant TOF with the TONE sequence name fl3d1r_tm',
      {
        modality: 'MR',
        repetitionTimeMs: 23,
        echoTimeMs: 4.2,
        flipAngle: 15,
        scanningSequence: ['GR'],
        sequenceVariant: ['TOF', 'SP', 'OSP'],
        sequenceName: '*fl3d1r_tm',
        mrAcquisitionType: '3D',
      },
      'OTHER',
      'angio',
    ],
    [
      'magnetization-prepared 3D gradient echo with a projection ImageType (not an inflow acquisition)',
      {
        modality: 'MR',
        repetitionTimeMs: 7.9,
        echoTimeMs: 3.5,
        flipAngle: 8,
        scanningSequence: ['GR'],
        sequenceVariant: ['MP'],
        mrAcquisitionType: '3D',
        imageType: ['ORIGINAL', 'PRIMARY', 'PROJECTION IMAGE', 'M', 'FFE'],
      },
      'T1',
      'T1w',
    ],
    [
      'Philips 3D TFE (SequenceVariant MP)',
      {
        modality: 'MR',
        repetitionTimeMs: 6.7,
        echoTimeMs: 3.1,
        flipAngle: 9,
        scanningSequence: ['GR'],
        sequenceVariant: ['MP'],
      },
      'T1',
      'T1w',
    ],
    [
      '2D spin-echo T1 (TR 500, TE 12)',
      { modality: 'MR', repetitionTimeMs: 500, echoTimeMs: 12, flipAngle: 90, scanningSequence: ['SE'] },
      'T1',
      'T1w',
    ],
    [
      'T1 dark-fluid TIR (TI 1600, TE 8.5)',
      {
        modality: 'MR',
        repetitionTimeMs: 4100,
        echoTimeMs: 8.5,
        inversionTimeMs: 1600,
        flipAngle: 150,
        scanningSequence: ['SE', 'IR'],
      },
      'T1',
      'T1w',
    ],
    ['2D T2 TSE (TE 100)', T2_TSE, 'T2', 'T2w'],
    [
      '3D T2 SPACE (TE 409, TR 3200, no sequence type)',
      { repetitionTimeMs: 3200, echoTimeMs: 409, flipAngle: 120 },
      'T2',
      'T2w',
    ],
    ['2D FLAIR (TI 2500, TE 120)', FLAIR_2D, 'FLAIR', 'FLAIR'],
    [
      '3D FLAIR SPACE without recorded TI (TR 5000, TE 395)',
      { repetitionTimeMs: 5000, echoTimeMs: 395, flipAngle: 120 },
      'FLAIR',
      'FLAIR',
    ],
    ['SWI image type', SWI_3D, 'SWI', 'T2starw'],
    [
      'T2* gradient echo (TE 20, no SWI image type)',
      { repetitionTimeMs: 700, echoTimeMs: 20, flipAngle: 20, scanningSequence: ['GR'], mrAcquisitionType: '2D' },
      'SWI',
      'T2starw',
    ],
    ['DTI, 64 directions', DTI_64, 'DTI', 'dwi'],
    [
      'clinical DWI, 3 directions at b=1000',
      { ...DTI_64, bValues: [0, 1000, 1000, 1000], diffusionDirections: 3 },
      'DWI',
      'dwi',
    ],
    [
      'derived ADC map',
      {
        ...DTI_64,
        imageType: ['DERIVED', 'PRIMARY', 'DIFFUSION', 'ADC'],
        bValues: undefined,
        diffusionDirections: undefined,
      },
      'OTHER',
      'ADC',
    ],
    [
      'BOLD (gradient-echo EPI, TE 30)',
      {
        repetitionTimeMs: 2000,
        echoTimeMs: 30,
        flipAngle: 77,
        scanningSequence: ['EP'],
        imageType: ['ORIGINAL', 'PRIMARY', 'M', 'MOSAIC'],
      },
      'OTHER',
      'bold',
    ],
    [
      'spin-echo EPI field map (no diffusion)',
      {
        repetitionTimeMs: 7000,
        echoTimeMs: 80,
        flipAngle: 90,
        imageType: ['ORIGINAL', 'PRIMARY', 'M', 'MB', 'ND', 'MOSAI'],
      },
      'OTHER',
      'epi',
    ],
    [
      'MP2RAGE inversion image (TR 5000)',
      { repetitionTimeMs: 5000, echoTimeMs: 2.9, inversionTimeMs: 700, flipAngle: 4, scanningSequence: ['GR', 'IR'] },
      'OTHER',
      'MP2RAGE',
    ],
    [
      'field-map phase image',
      {
        repetitionTimeMs: 680,
        echoTimeMs: 7.65,
        flipAngle: 60,
        scanningSequence: ['GR'],
        imageType: ['ORIGINAL', 'PRIMARY', 'P', 'ND'],
      },
      'OTHER',
      'phasediff',
    ],
    [
      'proton density (TR 3000, TE 12)',
      { repetitionTimeMs: 3000, echoTimeMs: 12, flipAngle: 150, scanningSequence: ['SE'] },
      'OTHER',
      'PDw',
    ],
    [
      'TOF angiography (Siemens fl3d1r_t70, short TR like a T1)',
      {
        repetitionTimeMs: 22,
        echoTimeMs: 3.6,
        flipAngle: 18,
        scanningSequence: ['GR'],
        sequenceName: '*fl3d1r_t70',
        scanOptions: ['SAT1'],
        mrAcquisitionType: '3D',
      },
      'OTHER',
      'angio',
    ],
    [
      'localizer image type',
      {
        repetitionTimeMs: 8.6,
        echoTimeMs: 4,
        flipAngle: 20,
        scanningSequence: ['GR'],
        imageType: ['ORIGINAL', 'PRIMARY', 'LOCALIZER'],
      },
      'OTHER',
      'unknown',
    ],
    ['CT modality', { modality: 'CT', imageType: ['ORIGINAL', 'PRIMARY', 'AXIAL'] }, 'OTHER', 'unknown'],
    ['nothing recorded', {}, 'OTHER', 'unknown'],
  ])('%s → %s', (_name, acq, expected, suffix) => {
    // Act
    const result = classifySeries(acq, { ignoreDescriptions: true });
    // Assess
    expect(result.classifiedType).toBe(expected);
    expect(result.bids.suffix).toBe(suffix);
    expect(result.confidence).toBeGreaterThan(0);
    expect(result.confidence).toBeLessThanOrEqual(1);
    expect(result.reasons.length).toBeGreaterThan(0);
  });
});

describe('classifySeries: descriptions add evidence but do not override physics', () => {
  it.each<[string, SeriesAcquisition, ClassifiedType]>([
    ['MPRAGE described as "T2 FLAIR axial"', { ...MPRAGE, seriesDescription: 'T2 FLAIR axial' }, 'T1'],
    ['T2 TSE described as "t1_mprage_sag"', { ...T2_TSE, seriesDescription: 't1_mprage_sag' }, 'T2'],
    ['DTI described as "T1 post"', { ...DTI_64, seriesDescription: 'T1 post' }, 'DTI'],
    ['FLAIR described as "localizer"', { ...FLAIR_2D, seriesDescription: 'localizer' }, 'FLAIR'],
    ['MPRAGE with an empty description', { ...MPRAGE, seriesDescription: '', protocolName: '' }, 'T1'],
    ['SWI described as "DWI"', { ...SWI_3D, seriesDescription: 'DWI' }, 'SWI'],
  ])('%s → %s', (_name, acq, expected) => {
    // Act
    const withDescriptions = classifySeries(acq);
    const physicsOnly = classifySeries(acq, { ignoreDescriptions: true });
    // Assess
    expect(withDescriptions.classifiedType).toBe(expected);
    expect(physicsOnly.classifiedType).toBe(expected);
  });

  it('lets a T1 description decide a 3D gradient echo timed like time-of-flight, which the physics leaves open', () => {
    // Prepare: TR 20 ms, TE 4 ms, flip 20° fits an inflow angiogram and a T1-weighted 3D FLASH alike.
    const timing: SeriesAcquisition = {
      repetitionTimeMs: 20,
      echoTimeMs: 4,
      flipAngle: 20,
      scanningSequence: ['GR'],
      mrAcquisitionType: '3D',
    };
    // Act
    const t1 = classifySeries({ ...timing, seriesDescription: 't1_fl3d_sag' });
    const tof = classifySeries({ ...timing, seriesDescription: 'MRA TOF COW' });
    // Assess
    expect(t1.classifiedType).toBe('T1');
    expect(t1.bids.suffix).toBe('T1w');
    expect(tof.classifiedType).toBe('OTHER');
    expect(tof.bids.suffix).toBe('angio');
  });

  it('lowers the evidence score when the description disagrees, and raises it when it agrees', () => {
    // Prepare: a model with no reliability records, so the confidence is the evidence scores' own probability.
    const model = { ...DEFAULT_MODEL, reliability: {} };
    const agreeing = { ...T2_TSE, seriesDescription: 't2_tse_tra' };
    const disagreeing = { ...T2_TSE, seriesDescription: 't1_mprage_sag' };
    // Act
    const agree = classifySeries(agreeing, { model });
    const disagree = classifySeries(disagreeing, { model });
    const neutral = classifySeries(T2_TSE, { model });
    // Assess
    expect(agree.confidence).toBeGreaterThan(neutral.confidence);
    expect(disagree.confidence).toBeLessThan(neutral.confidence);
    expect(disagree.reasons.some((reason) => reason.startsWith('outweighed: description'))).toBe(true);
  });

  it('uses the description when the physics is silent (sidecar with names only)', () => {
    // Act
    const result = classifySeries({ seriesDescription: 't2_flair_tra' });
    const physicsOnly = classifySeries({ seriesDescription: 't2_flair_tra' }, { ignoreDescriptions: true });
    // Assess
    expect(result.classifiedType).toBe('FLAIR');
    expect(result.reasons[0]).toContain('names FLAIR');
    expect(physicsOnly.classifiedType).toBe('OTHER');
    expect(physicsOnly.reasons).toContain('descriptions ignored (acquisition parameters only)');
  });
});

describe('classifySeries: post-contrast T1', () => {
  it.each<[string, SeriesAcquisition, boolean, ClassifiedType]>([
    ['contrast agent recorded, no description', { ...MPRAGE, contrastAgent: 'Gadovist 7.5 ml' }, true, 'T1_CONTRAST'],
    [
      'contrast agent recorded, description "T1 pre"',
      { ...MPRAGE, contrastAgent: 'GADOBUTROL', seriesDescription: 't1_mprage_pre' },
      false,
      'T1_CONTRAST',
    ],
    [
      'description "T1 MPRAGE POST GAD", no agent',
      { ...MPRAGE, seriesDescription: 'T1 MPRAGE POST GAD' },
      false,
      'T1_CONTRAST',
    ],
    [
      'description "T1 MPRAGE POST GAD", descriptions ignored',
      { ...MPRAGE, seriesDescription: 'T1 MPRAGE POST GAD' },
      true,
      'T1',
    ],
    ['agent "NONE"', { ...MPRAGE, contrastAgent: 'NONE' }, true, 'T1'],
    ['description "t1 pre contrast"', { ...MPRAGE, seriesDescription: 't1 pre contrast' }, false, 'T1'],
    ['contrast agent on a FLAIR stays FLAIR', { ...FLAIR_2D, contrastAgent: 'Gadovist' }, false, 'FLAIR'],
  ])('%s → %s', (_name, acq, ignoreDescriptions, expected) => {
    // Act
    const result = classifySeries(acq, { ignoreDescriptions });
    // Assess
    expect(result.classifiedType).toBe(expected);
    if (expected === 'T1_CONTRAST') {
      expect(result.bids.datatype).toBe('anat');
      expect(result.bids.suffix).toBe('T1w');
      expect(result.bids.entities?.ce).toBeTruthy();
    }
  });
});

describe('confidence', () => {
  it('flags a series with no usable evidence for review', () => {
    // Act
    const result = classifySeries({ echoTimeMs: 240, pulseSequenceType: 'SE' });
    // Assess
    expect(result.classifiedType).toBe('OTHER');
    expect(result.confidence).toBeLessThan(0.9);
  });

  it('is high for a fully described standard acquisition', () => {
    // Act
    const result = classifySeries({ ...MPRAGE, seriesDescription: 't1_mprage_sag_p2_iso' });
    // Assess
    expect(result.confidence).toBeGreaterThan(0.95);
    expect(isLowConfidence(result)).toBe(false);
    expect(LOW_CONFIDENCE_THRESHOLD).toBeGreaterThan(0);
  });

  it('classifies one series in well under a millisecond', () => {
    // Act
    const started = performance.now();
    for (let i = 0; i < 1000; i += 1) classifySeries({ ...DTI_64, seriesDescription: `dti ${i}` });
    const perSeries = (performance.now() - started) / 1000;
    // Assess
    expect(perSeries).toBeLessThan(1);
  });
});

describe('classifySeries: BIDS families beyond the eight types', () => {
  it.each<[string, SeriesAcquisition, ClassifiedType, string]>([
    [
      'task fMRI named after its site (Siemens epfid, 90° excitation): bold, not a field map',
      {
        repetitionTimeMs: 2000,
        echoTimeMs: 30,
        flipAngle: 90,
        scanningSequence: ['EP'],
        sequenceName: '*epfid2d1_64',
        imageType: ['ORIGINAL', 'PRIMARY', 'M', 'ND', 'MOSAIC'],
        seriesDescription: 'Memory_words_121Frames',
      },
      'OTHER',
      'bold',
    ],
    [
      'spoiled gradient echo at its Ernst angle (TR 10.8 ms, flip 8°, a Philips B0 map without sequence fields): proton-density, not T1',
      { repetitionTimeMs: 10.8, echoTimeMs: 3.02, flipAngle: 8, manufacturer: 'Philips' },
      'OTHER',
      'PDw',
    ],
    [
      'turbo spin echo with a very long TR whose ScanningSequence records no inversion: T2, not a FLAIR missing its TI',
      {
        repetitionTimeMs: 9230,
        echoTimeMs: 67,
        flipAngle: 150,
        scanningSequence: ['SE'],
        sequenceName: '_tse2d1_13',
        mrAcquisitionType: '2D',
      },
      'T2',
      'T2w',
    ],
    [
      'spoiled gradient echo well above its Ernst angle (TR 20 ms, flip 30°): T1-weighted',
      { repetitionTimeMs: 20, echoTimeMs: 4.6, flipAngle: 30, scanningSequence: ['GR'] },
      'T1',
      'T1w',
    ],
    [
      'phase-contrast flow (Siemens velocity-encoded sequence, retrospective gating), whatever TI the header carries',
      {
        repetitionTimeMs: 64.3,
        echoTimeMs: 2.87,
        inversionTimeMs: 1367,
        flipAngle: 15,
        scanningSequence: ['GR'],
        sequenceName: 'WIP_f_v100in',
        imageType: ['DERIVED', 'PRIMARY', 'P', 'ND', 'RETRO', 'PHASE'],
      },
      'OTHER',
      'unknown',
    ],
    [
      "an ASL protocol's spin-echo field map: a field map, not perfusion",
      {
        repetitionTimeMs: 8000,
        echoTimeMs: 40,
        flipAngle: 90,
        scanningSequence: ['EP'],
        sequenceName: 'epse2d1_86',
        imageType: ['ORIGINAL', 'PRIMARY', 'M', 'ND', 'MOSAIC'],
        seriesDescription: 'PCASLhr_SpinEchoFieldMap_AP',
      },
      'OTHER',
      'epi',
    ],
    [
      'gradient echo timed like BOLD, EPI read-out not recorded (Philips sidecar)',
      { repetitionTimeMs: 2000, echoTimeMs: 30, flipAngle: 72, scanningSequence: ['GR'] },
      'OTHER',
      'bold',
    ],
    [
      'spin-echo EPI of a reversed phase-encoding pair',
      { repetitionTimeMs: 7000, echoTimeMs: 80, flipAngle: 90, imageType: ['ORIGINAL', 'PRIMARY', 'M', 'MOSAIC'] },
      'OTHER',
      'epi',
    ],
    [
      'b0-only diffusion run (b-values written, all 0)',
      {
        repetitionTimeMs: 6500,
        echoTimeMs: 54,
        flipAngle: 90,
        scanningSequence: ['SE'],
        bValues: [0],
        diffusionDirections: 0,
      },
      'DWI',
      'dwi',
    ],
    [
      'magnetization-transfer on (SequenceVariant MTC)',
      {
        repetitionTimeMs: 446,
        echoTimeMs: 4.1,
        flipAngle: 40,
        scanningSequence: ['GR'],
        sequenceVariant: ['MTC', 'SP'],
      },
      'OTHER',
      'MTS',
    ],
    [
      'multi-echo 3D gradient echo (Siemens fl3d12: 12 echoes)',
      { repetitionTimeMs: 43, echoTimeMs: 32.7, flipAngle: 15, scanningSequence: ['GR'], sequenceName: '*fl3d12_ns' },
      'OTHER',
      'MEGRE',
    ],
    [
      'MP2RAGE uniform image (ImageType UNI)',
      {
        repetitionTimeMs: 5000,
        echoTimeMs: 2.98,
        scanningSequence: ['GR', 'IR'],
        sequenceName: 'tfl3d1_16ns',
        imageType: ['DERIVED', 'PRIMARY', 'M', 'UNI'],
      },
      'OTHER',
      'UNIT1',
    ],
    [
      'Siemens B1 map (tfl2d repeated every 20 s)',
      { repetitionTimeMs: 20000, echoTimeMs: 2.8, flipAngle: 60, scanningSequence: ['GR'], sequenceName: 'tfl2d1' },
      'OTHER',
      'TB1TFL',
    ],
    [
      'pCASL EPI (ImageType ASL)',
      {
        repetitionTimeMs: 4800,
        echoTimeMs: 13,
        flipAngle: 90,
        scanningSequence: ['EP'],
        imageType: ['ORIGINAL', 'PRIMARY', 'ASL', 'MOSAIC'],
      },
      'OTHER',
      'asl',
    ],
    [
      'trace-weighted diffusion image',
      {
        ...DTI_64,
        imageType: ['DERIVED', 'PRIMARY', 'DIFFUSION', 'TRACEW'],
        bValues: undefined,
        diffusionDirections: undefined,
      },
      'OTHER',
      'trace',
    ],
  ])('%s → %s %s', (_name, acq, expected, suffix) => {
    // Act
    const result = classifySeries(acq);
    // Assess
    expect(result.classifiedType).toBe(expected);
    expect(result.bids.suffix).toBe(suffix);
  });

  it.each<[string, SeriesAcquisition, string]>([
    [
      'single-band reference named SBRef beside its BOLD run',
      {
        ...{ repetitionTimeMs: 800, echoTimeMs: 37, flipAngle: 52, scanningSequence: ['EP'] },
        seriesDescription: 'rfMRI_REST_AP_SBRef',
      },
      'sbref',
    ],
    [
      'reversed phase-encoding EPI named for distortion correction',
      {
        repetitionTimeMs: 2500,
        echoTimeMs: 15,
        flipAngle: 80,
        scanningSequence: ['EP'],
        seriesDescription: 'ME_Rest_opposite_PE_for_distortion_correction',
      },
      'epi',
    ],
    [
      'time-of-flight named in the description, physics like a spoiled T1',
      {
        repetitionTimeMs: 18,
        echoTimeMs: 3.5,
        flipAngle: 18,
        scanningSequence: ['GR'],
        seriesDescription: 'MRA TOF COW',
      },
      'angio',
    ],
    [
      'Philips "WIP…SENSE" wrapper around the name',
      { repetitionTimeMs: 8.3, echoTimeMs: 3.8, seriesDescription: 'ImageMRSERIES', protocolName: 'WIPT1wSENSE' },
      'T1w',
    ],
  ])('%s → %s', (_name, acq, suffix) => {
    // Act
    const result = classifySeries(acq);
    // Assess
    expect(result.bids.suffix).toBe(suffix);
  });

  it('reads post-contrast T1 from Italian and German contrast words', () => {
    // Act
    const italian = classifySeries({ ...MPRAGE, seriesDescription: 'sT1W_3D_MDC' });
    const german = classifySeries({ ...MPRAGE, seriesDescription: 't1_mprage_KM' });
    const pre = classifySeries({ ...MPRAGE, seriesDescription: 'sT1W_3D' });
    // Assess
    expect(italian.classifiedType).toBe('T1_CONTRAST');
    expect(german.classifiedType).toBe('T1_CONTRAST');
    expect(pre.classifiedType).toBe('T1');
  });

  it('names the echo of a multi-echo series and tells a field map second magnitude by its echo number', () => {
    // Prepare
    const magnitude: SeriesAcquisition = {
      repetitionTimeMs: 667,
      echoTimeMs: 7.65,
      flipAngle: 60,
      scanningSequence: ['GR'],
      sequenceName: '*fm2d2r',
      imageType: ['ORIGINAL', 'PRIMARY', 'M', 'ND'],
    };
    // Act
    const first = classifySeries({ ...magnitude, echoNumber: 1 });
    const second = classifySeries({ ...magnitude, echoNumber: 2 });
    const multiEcho = classifySeries({
      repetitionTimeMs: 43,
      echoTimeMs: 12.1,
      flipAngle: 15,
      scanningSequence: ['GR'],
      sequenceName: '*fl3d12_ns',
      echoNumber: 4,
    });
    // Assess
    expect(first.bids).toEqual({ datatype: 'fmap', suffix: 'magnitude1' });
    expect(second.bids).toEqual({ datatype: 'fmap', suffix: 'magnitude2' });
    expect(multiEcho.bids).toEqual({ datatype: 'anat', suffix: 'MEGRE', entities: { echo: '4' } });
  });

  it('marks the phase part of a complex series', () => {
    // Act
    const result = classifySeries({
      repetitionTimeMs: 43,
      echoTimeMs: 32.7,
      flipAngle: 15,
      scanningSequence: ['GR'],
      sequenceName: '*fl3d12_ns',
      imageType: ['ORIGINAL', 'PRIMARY', 'P', 'ND', 'PHASE'],
    });
    // Assess
    expect(result.bids).toEqual({ datatype: 'anat', suffix: 'MEGRE', entities: { part: 'phase' } });
  });
});

describe('classifySeries: BIDS entities from the headers', () => {
  const MT_SET: SeriesAcquisition = {
    repetitionTimeMs: 30,
    echoTimeMs: 3.8,
    scanningSequence: ['GR'],
    sequenceName: '*fl3d1',
    imageType: ['ORIGINAL', 'PRIMARY', 'M', 'ND'],
  };

  it('names the three images of a magnetization-transfer set by mt and flip (BIDS MTS)', () => {
    // Act: MT pulse on at the proton-density flip (recorded in ScanOptions), then the two MT-off images, which only
    // their description files with the set, at the proton-density and at the T1-weighted flip.
    const mtOn = classifySeries({ ...MT_SET, flipAngle: 6, scanOptions: ['MT'] });
    const pdOff = classifySeries({ ...MT_SET, flipAngle: 6, seriesDescription: 'mt_off_pdw' });
    const t1Off = classifySeries({ ...MT_SET, flipAngle: 20, seriesDescription: 'mt_off_t1w' });
    // Assess
    expect(mtOn.bids).toEqual({ datatype: 'anat', suffix: 'MTS', entities: { mt: 'on', flip: '1' } });
    expect(pdOff.bids).toEqual({ datatype: 'anat', suffix: 'MTS', entities: { mt: 'off', flip: '1' } });
    expect(t1Off.bids).toEqual({ datatype: 'anat', suffix: 'MTS', entities: { mt: 'off', flip: '2' } });
  });

  it('tells the anatomical image and the flip-angle map of a Siemens TFL B1 map by acq', () => {
    // Prepare
    const tfl: SeriesAcquisition = {
      repetitionTimeMs: 34420,
      echoTimeMs: 2.31,
      flipAngle: 10,
      scanningSequence: ['GR'],
      sequenceName: 'tfl2d1_512',
      pulseSequenceDetails: '%CustomerSeq%_tfl_b1map',
    };
    // Act
    const anat = classifySeries({ ...tfl, imageType: ['ORIGINAL', 'PRIMARY', 'M', 'ND'] });
    const famp = classifySeries({ ...tfl, flipAngle: 90, imageType: ['ORIGINAL', 'PRIMARY', 'FLIP ANGLE MAP', 'ND'] });
    // Assess
    expect(anat.bids).toEqual({ datatype: 'fmap', suffix: 'TB1TFL', entities: { acq: 'anat' } });
    expect(famp.bids).toEqual({ datatype: 'fmap', suffix: 'TB1TFL', entities: { acq: 'famp' } });
  });

  it('names a Siemens DREAM B1 map and its reference-voltage map from their image types', () => {
    // Prepare
    const dream: SeriesAcquisition = {
      repetitionTimeMs: 6000,
      echoTimeMs: 3.05,
      flipAngle: 50,
      scanningSequence: ['RM'],
      sequenceName: 'develop',
      seriesDescription: 'B1Map_ND',
    };
    // Act
    const famp = classifySeries({ ...dream, imageType: ['ORIGINAL', 'PRIMARY', 'DENSITY MAP', 'ND', 'B1MAP'] });
    const refv = classifySeries({
      ...dream,
      seriesDescription: 'RefVolt_ND',
      imageType: ['ORIGINAL', 'PRIMARY', 'OTHER', 'ND', 'REFVOLTMAP'],
    });
    // Assess
    expect(famp.bids).toEqual({ datatype: 'fmap', suffix: 'TB1DREAM', entities: { acq: 'famp' } });
    expect(refv.bids).toEqual({ datatype: 'fmap', suffix: 'TB1DREAM', entities: { acq: 'refv' } });
  });

  it('names dir from the phase-encoding direction of EPI read-outs only', () => {
    // Prepare
    const bold = acquisitionFromSidecar({
      RepetitionTime: 2,
      EchoTime: 0.03,
      FlipAngle: 90,
      ScanningSequence: 'EP',
      SequenceName: 'epfid2d1_64',
      ImageType: ['ORIGINAL', 'PRIMARY', 'M', 'ND', 'MOSAIC'],
      PhaseEncodingDirection: 'j',
    });
    // Act
    const pa = classifySeries(bold);
    const ap = classifySeries({ ...bold, phaseEncodingDirection: 'j-' });
    const sideways = classifySeries({ ...bold, phaseEncodingDirection: 'i' });
    const anatomical = classifySeries({ ...MPRAGE, phaseEncodingDirection: 'j-' });
    // Assess
    expect(pa.bids).toEqual({ datatype: 'func', suffix: 'bold', entities: { dir: 'PA' } });
    expect(ap.bids.entities).toEqual({ dir: 'AP' });
    expect(sideways.bids.entities).toBeUndefined();
    expect(anatomical.bids.entities).toBeUndefined();
  });
});

describe('diffusion helpers and sidecars', () => {
  it('counts antipodal gradient vectors once and ignores b=0 and zero vectors', () => {
    // Prepare
    const vectors = [
      [0, 0, 0],
      [1, 0, 0],
      [-1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
      [0, 0, 0],
    ];
    const bValues = [0, 1000, 1000, 1000, 1000, 1000];
    // Act & Assess
    expect(countDirections(vectors, bValues)).toBe(3);
  });

  it('reads a dcm2niix sidecar in seconds with its .bval/.bvec text', () => {
    // Prepare
    const bvec = parseBvec('0 1 0 0 0.7071\n0 0 1 0 0.7071\n0 0 0 1 0\n');
    // Act
    const acq = acquisitionFromSidecar(
      {
        RepetitionTime: 2.3,
        EchoTime: 0.00298,
        InversionTime: 0.9,
        FlipAngle: 9,
        ScanningSequence: 'GR_IR',
        ImageType: ['ORIGINAL', 'PRIMARY', 'M'],
      },
      '0 1000 1000 1000 1000',
      '0 1 0 0 0.7071\n0 0 1 0 0.7071\n0 0 0 1 0\n',
    );
    // Assess
    expect(bvec).toHaveLength(5);
    expect(acq.repetitionTimeMs).toBeCloseTo(2300);
    expect(acq.echoTimeMs).toBeCloseTo(2.98);
    expect(acq.inversionTimeMs).toBeCloseTo(900);
    expect(acq.scanningSequence).toEqual(['GR', 'IR']);
    expect(acq.diffusionDirections).toBe(4);
    expect(acq.numberOfVolumes).toBe(5);
  });
});
