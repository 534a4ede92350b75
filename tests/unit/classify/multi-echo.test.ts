import { describe, expect, it } from 'vitest';
import { studyOf, withSeriesContext, uniqueProtocols } from '#bench/classify/evaluation.ts';
import { acquisitionsFromDicomJson, classifySeries } from '#shared/dicom/classify/index.ts';

/**
 * A multi-echo acquisition is one DICOM series with several EchoNumbers (0018,0086) and echo times; dcm2niix writes one
 * file per echo. Six echo times or more make a gradient echo a multi-echo mapping series (MEGRE) and a spin echo a
 * multi-echo T2 mapping (MESE), docs/classification.md#multi-echo-series.
 */
const echoes = (count: number, first: number, spacing: number) =>
  Array.from({ length: count }, (_, i) => first + i * spacing);

describe('multi-echo series', () => {
  it('reads a seven-echo FLASH with only TR, TE and flip recorded as MEGRE, whichever echo and flip', () => {
    // Prepare: TR 20 ms, flips 5° and 30°, echo times 1.85 … 15.65 ms.
    const times = echoes(7, 1.85, 2.3);
    for (const flipAngle of [5, 30])
      for (const echoTimeMs of [times[0]!, times[6]!]) {
        // Act
        const result = classifySeries({ repetitionTimeMs: 20, echoTimeMs, flipAngle, echoTimesMs: times });
        // Assess
        expect(result.classifiedType).toBe('OTHER');
        expect(result.bids.suffix).toBe('MEGRE');
      }
  });

  it('keeps one echo of the same FLASH T1-weighted when the series holds one echo time', () => {
    // Act
    const result = classifySeries({ repetitionTimeMs: 20, echoTimeMs: 1.85, flipAngle: 30 });
    // Assess
    expect(result.classifiedType).toBe('T1');
  });

  it('reads a spin echo with eight echo times as MESE', () => {
    // Act
    const result = classifySeries({
      repetitionTimeMs: 2000,
      echoTimeMs: 10,
      flipAngle: 90,
      scanningSequence: ['SE'],
      echoTimesMs: echoes(8, 10, 10),
    });
    // Assess
    expect(result.classifiedType).toBe('OTHER');
    expect(result.bids.suffix).toBe('MESE');
  });

  it('keeps a two-echo field map magnitude and a multi-echo MPRAGE as they were', () => {
    // Prepare
    const magnitude = {
      repetitionTimeMs: 400,
      echoTimeMs: 7.65,
      flipAngle: 60,
      scanningSequence: ['GR'],
      sequenceName: '*fm2d2r',
      imageType: ['ORIGINAL', 'PRIMARY', 'M', 'ND'],
      mrAcquisitionType: '2D',
      echoTimesMs: [5.19, 7.65],
      echoNumber: 2,
    };
    const mprage = {
      repetitionTimeMs: 2530,
      echoTimeMs: 1.64,
      inversionTimeMs: 1100,
      flipAngle: 7,
      scanningSequence: ['GR', 'IR'],
      sequenceVariant: ['SK', 'SP', 'MP'],
      sequenceName: 'tfl3d4_16ns',
      mrAcquisitionType: '3D',
      echoTimesMs: echoes(6, 1.64, 1.86),
    };
    // Act
    const fieldMap = classifySeries(magnitude);
    const t1 = classifySeries(mprage);
    // Assess
    expect(fieldMap.bids.suffix).toBe('magnitude2');
    expect(t1.classifiedType).toBe('T1');
  });

  it('reads the echo times of every instance of a DICOM series (the DICOM path)', () => {
    // Prepare: one series, six echoes of a 3D gradient echo, two slices each.
    const instances = echoes(6, 3, 5).flatMap((te, i) =>
      [0, 1].map((slice) => ({
        '0020000E': { vr: 'UI', Value: ['1.2.3'] },
        '00080060': { vr: 'CS', Value: ['MR'] },
        '00180020': { vr: 'CS', Value: ['GR'] },
        '00180023': { vr: 'CS', Value: ['3D'] },
        '00180080': { vr: 'DS', Value: [35] },
        '00180081': { vr: 'DS', Value: [te] },
        '00180086': { vr: 'IS', Value: [i + 1] },
        '00181314': { vr: 'DS', Value: [15] },
        '00200032': { vr: 'DS', Value: [0, 0, slice] },
      })),
    );
    // Act
    const acq = acquisitionsFromDicomJson(instances).get('1.2.3')!;
    const result = classifySeries(acq);
    // Assess
    expect(acq.echoTimesMs).toEqual([3, 8, 13, 18, 23, 28]);
    expect(result.classifiedType).toBe('OTHER');
    expect(result.bids.suffix).toBe('MEGRE');
  });
});

describe('series context of labelled files', () => {
  const row = (path: string, echoTime: string, flip = '30') => ({
    source: 'ds-test',
    path,
    target_class: 'OTHER',
    RepetitionTime: '0.020',
    EchoTime: echoTime,
    FlipAngle: flip,
  });

  it('names the study by the subject or session folder, never by the file name', () => {
    // Assess
    expect(studyOf(row('sub-BO22/anat/sub-BO22_run-02_T1w.json', '0.004'))).toBe('ds-test/sub-BO22/');
    expect(studyOf({ source: 'bids-examples', path: 'ds000117/sub-04/ses-mri/anat/x_T1w.json' })).toBe(
      'bids-examples/ds000117/sub-04/ses-mri/',
    );
  });

  it('gives the files of one study identical but for EchoTime their echo set, and no other file', () => {
    // Prepare
    const rows = [
      row('sub-01/anat/a_echo-1.nii.gz', '0.002'),
      row('sub-01/anat/a_echo-2.nii.gz', '0.004'),
      row('sub-01/anat/b.nii.gz', '0.002', '5'),
      row('sub-02/anat/a_echo-1.nii.gz', '0.002'),
    ];
    // Act
    const context = withSeriesContext(rows);
    const protocols = uniqueProtocols(rows);
    // Assess
    expect(context.map((r) => r.EchoTimes)).toEqual(['0.002 0.004', '0.002 0.004', undefined, undefined]);
    expect(protocols.find((p) => p.acquisition.echoTimeMs === 2 && p.acquisition.flipAngle === 30)).toMatchObject({
      rows: 2,
      studies: ['ds-test/sub-01/', 'ds-test/sub-02/'],
      acquisition: { echoTimesMs: [2, 4] },
    });
  });
});
