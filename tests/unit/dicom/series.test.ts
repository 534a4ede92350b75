import { describe, expect, it } from 'vitest';
import type { SeriesFileMetadata } from '#shared/dicom/metadata.ts';
import { categorizeSeries, groupIntoSeries, suggestBids } from '#shared/dicom/series.ts';

function file(overrides: Partial<SeriesFileMetadata>): SeriesFileMetadata {
  return {
    seriesInstanceUID: '1.2.3',
    studyInstanceUID: '1.2',
    modality: 'MR',
    seriesNumber: 1,
    seriesDescription: 'T1 MPRAGE',
    imageType: ['ORIGINAL', 'PRIMARY'],
    patientID: 'P',
    studyDate: '20240101',
    instanceNumber: 1,
    patientName: 'X',
    studyDescription: 'Brain',
    sopInstanceUID: '1.2.3.1',
    fileSize: 100,
    fileName: 'f.dcm',
    ...overrides,
  };
}

describe('groupIntoSeries (record section 9)', () => {
  it('orders series by seriesNumber and files by instanceNumber, with counts and sizes', () => {
    // Prepare
    const files = [
      file({
        seriesInstanceUID: 'B',
        seriesNumber: 5,
        instanceNumber: 3,
        fileName: 'b3',
        fileSize: 10,
        seriesDescription: 'DWI b1000',
      }),
      file({ seriesInstanceUID: 'A', seriesNumber: 2, instanceNumber: 2, fileName: 'a2', fileSize: 5 }),
      file({
        seriesInstanceUID: 'B',
        seriesNumber: 5,
        instanceNumber: 1,
        fileName: 'b1',
        fileSize: 10,
        seriesDescription: 'DWI b1000',
      }),
      file({ seriesInstanceUID: 'A', seriesNumber: 2, instanceNumber: 1, fileName: 'a1', fileSize: 5 }),
      file({
        seriesInstanceUID: 'C',
        seriesNumber: 10,
        modality: 'PT',
        seriesDescription: 'PET-CT SERIES',
        fileSize: 1,
      }),
    ];
    // Act
    const groups = groupIntoSeries(files);
    // Assess
    expect(groups.map((group) => group.seriesInstanceUID)).toEqual(['A', 'B', 'C']);
    expect(groups[0]!.files.map((entry) => entry.fileName)).toEqual(['a1', 'a2']);
    expect(groups[1]).toMatchObject({
      fileCount: 2,
      totalSize: 20,
      category: 'Diffusion',
      bidsSuggestion: { datatype: 'dwi', suffix: 'dwi' },
    });
    expect(groups[2]).toMatchObject({ category: 'Metabolic', bidsSuggestion: { datatype: 'pet', suffix: 'pet' } });
  });
});

describe('categorizeSeries (record section 9)', () => {
  it.each([
    ['MR', 'T1 MPRAGE', 'Anatomical'],
    ['MR', 'ax T2 FLAIR', 'Anatomical'],
    ['MR', 'DWI b1000', 'Diffusion'],
    ['MR', 'ep2d_bold_rest', 'Functional'],
    ['MR', 'pCASL perfusion', 'Perfusion'],
    ['MR', 'localizer', 'Anatomical'],
    ['CT', 'head', 'Anatomical'],
    ['PT', 'FDG', 'Metabolic'],
    ['US', 'abdomen', 'Other'],
    ['Unknown', 'x', 'Other'],
  ])('%s "%s" is %s', (modality, description, category) => {
    expect(categorizeSeries(modality, description)).toBe(category);
  });
});

describe('suggestBids (record section 9)', () => {
  it.each([
    ['MR', 'T1 MPRAGE', 'anat', 'T1w'],
    ['MR', 'T2 TSE', 'anat', 'T2w'],
    ['MR', 'FLAIR', 'anat', 'FLAIR'],
    ['MR', 'T2 FLAIR', 'anat', 'FLAIR'],
    ['MR', 'dwi 64dir', 'dwi', 'dwi'],
    ['MR', 'Diffusion', 'dwi', 'dwi'],
    ['MR', 'rest bold', 'func', 'bold'],
    ['MR', 'func run1', 'func', 'bold'],
    ['MR', 'ASL', 'perf', 'asl'],
    ['MR', 'gre_fieldmap', 'fmap', 'fieldmap'],
    ['PT', 'PET-CT SERIES', 'pet', 'pet'],
    ['MR', 'survey', 'anat', 'T1w'],
  ])('%s "%s" suggests %s/%s', (modality, description, datatype, suffix) => {
    expect(suggestBids(modality, description)).toEqual({ datatype, suffix });
  });
});
