import { describe, expect, it } from 'vitest';
import { assetKeys, datasetPrefix, ObjectKeyError, studyKeys, uploadKeys } from '#shared/domain/object-keys.ts';
import { isDicomUid } from '#shared/schemas/api/common.ts';

describe('object keys', () => {
  it('accepts only PS3.5 9.1 UIDs: digits and dots, no leading zero in a component, at most 64 characters', () => {
    for (const uid of ['1.2.840.10008.1.2.1', '2.25.0', '0', `1.${'2'.repeat(62)}`]) expect(isDicomUid(uid)).toBe(true);
    for (const uid of [
      '',
      '1..2',
      '1.2.',
      '.1.2',
      '1.02',
      '1.2.3a',
      '1.2 3',
      '../../etc',
      'Doe^Jane',
      `1.${'2'.repeat(63)}`,
    ])
      expect(isDicomUid(uid)).toBe(false);
  });

  it('builds every key from ids, series UIDs and asset types', () => {
    const series = '2.25.123';
    expect(uploadKeys.file('h1', 'd-1', 7)).toBe('h1/d-1/raw/7');
    expect(studyKeys.instance('h1', 'd-1', series, '2.25.9')).toBe('h1/d-1/2.25.123/2.25.9.dcm');
    expect(assetKeys.volume('h1', 'd-1', series, 0, 'nifti')).toBe('h1/d-1/2.25.123/volume-0.nii.gz');
    expect(assetKeys.volume('h1', 'd-1', series, 1, 'bvec')).toBe('h1/d-1/2.25.123/volume-1.bvec');
    expect(assetKeys.thumbnail('h1', 'd-1', series)).toBe('h1/d-1/2.25.123/thumbnail.png');
    expect(assetKeys.surface('h1', 'd-1', series, 'mz3')).toBe('h1/d-1/2.25.123/surface.mz3');
    expect(assetKeys.derived('h1', 'd-1', series, 0, 'colorfa')).toBe('h1/d-1/2.25.123/volume-0-colorfa.nii.gz');
    expect(assetKeys.report('h1', 'd-1')).toBe('h1/d-1/report.pdf');
  });

  it('refuses anything else as a key segment, naming only the kind of value', () => {
    const attempts = [
      () => datasetPrefix('h1', '../h2'),
      () => datasetPrefix('h/1', 'd'),
      () => datasetPrefix('h1', 'T1 MPRAGE'),
      () => studyKeys.series('h1', 'd', 'T1_MPRAGE_Doe'),
      () => studyKeys.instance('h1', 'd', '1.2.3', '1.2.3/../../x'),
      () => assetKeys.thumbnail('h1', 'd', 'Doe^Jane'),
      () => assetKeys.surface('h1', 'd', '1.2', '../x'),
      () => uploadKeys.file('h1', 'd', -1),
      () => assetKeys.volume('h1', 'd', '1.2', 1.5, 'nifti'),
    ];
    for (const attempt of attempts) {
      expect(attempt).toThrow(ObjectKeyError);
      try {
        attempt();
      } catch (error) {
        expect((error as Error).message).not.toMatch(/Doe|MPRAGE|\.\./);
      }
    }
  });
});
