import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildDicomLayoutZip, type DicomLayoutSelection } from '#shared/dicom/bids/dicom-layout.ts';
import { unzipFiles } from '#shared/dicom/bids/zip.ts';
import type { SeriesFileMetadata } from '#shared/dicom/metadata.ts';
import type { SeriesGroup } from '#shared/dicom/series.ts';

function fileMeta(fileName: string, instanceNumber: number): SeriesFileMetadata {
  return {
    seriesInstanceUID: '2.25.1',
    studyInstanceUID: '2.25.2',
    modality: 'MR',
    seriesNumber: 3,
    seriesDescription: 'x',
    imageType: [],
    patientID: '',
    studyDate: '20240101',
    instanceNumber,
    patientName: '',
    studyDescription: '',
    sopInstanceUID: `2.25.3.${instanceNumber}`,
    fileSize: 4,
    fileName,
  };
}

function selection(
  overrides: Partial<SeriesGroup>,
  category: string,
  subcategory: string,
  files: [string, number][],
): DicomLayoutSelection {
  const metas = files.map(([name, instance]) => fileMeta(name, instance));
  const series: SeriesGroup = {
    seriesInstanceUID: '2.25.1',
    seriesNumber: 3,
    modality: 'MR',
    seriesDescription: 'SAG T1 MPRAGE',
    studyDate: '20240101',
    files: metas,
    fileCount: metas.length,
    totalSize: metas.length * 4,
    category: 'Anatomical',
    bidsSuggestion: { datatype: 'anat', suffix: 'T1w' },
    ...overrides,
  };
  return {
    series,
    category,
    subcategory,
    files: files.map(([name], index) => ({ fileName: name, bytes: new Uint8Array([index, 1, 2, 3]) })),
  };
}

describe('buildDicomLayoutZip', () => {
  it("writes the record's folder and file names, dataset_description.json and metadata.json", async () => {
    // Prepare
    const exportDate = new Date('2025-03-04T10:20:30Z');
    const t1 = selection({}, 'anat', 'T1w', [
      ['IM2', 2],
      ['IM1', 1],
      ['IM12', 12],
    ]);
    const dwi = selection(
      { seriesInstanceUID: '2.25.9', seriesNumber: 7, seriesDescription: 'DTI 32 dir' },
      'dwi',
      'dwi',
      [['a', 1]],
    );

    // Act
    const { fileName, bytes, metadata } = await buildDicomLayoutZip([dwi, t1], { exportDate });

    // Assess
    expect(fileName).toBe('BIDS_Export_2025-03-04.zip');
    const files = await unzipFiles(bytes);
    expect([...files.keys()].sort()).toEqual([
      'dataset_description.json',
      'metadata.json',
      'sub-01/ses-001/anat/SAG_T1_MPRAGE_Series003/sub-01_ses-001_T1w_0001.dcm',
      'sub-01/ses-001/anat/SAG_T1_MPRAGE_Series003/sub-01_ses-001_T1w_0002.dcm',
      'sub-01/ses-001/anat/SAG_T1_MPRAGE_Series003/sub-01_ses-001_T1w_0012.dcm',
      'sub-01/ses-001/dwi/DTI_32_dir_Series007/sub-01_ses-001_dwi_0001.dcm',
    ]);
    expect([...files.get('sub-01/ses-001/anat/SAG_T1_MPRAGE_Series003/sub-01_ses-001_T1w_0002.dcm')!]).toEqual([
      0, 1, 2, 3,
    ]);
    const description = JSON.parse(new TextDecoder().decode(files.get('dataset_description.json')));
    expect(description.BIDSVersion).toBe('1.8.0');
    const written = JSON.parse(new TextDecoder().decode(files.get('metadata.json')));
    expect(written).toEqual(metadata);
    expect(written).toMatchObject({ exportDate: '2025-03-04T10:20:30.000Z', seriesCount: 2, totalFiles: 4 });
    expect(
      written.series.map((entry: { folder: string; seriesNumber: number; fileCount: number }) => [
        entry.seriesNumber,
        entry.folder,
        entry.fileCount,
      ]),
    ).toEqual([
      [3, 'sub-01/ses-001/anat/SAG_T1_MPRAGE_Series003', 3],
      [7, 'sub-01/ses-001/dwi/DTI_32_dir_Series007', 1],
    ]);
  });

  it('compresses with deflate (method 8) and never overwrites files whose instance numbers repeat', async () => {
    // Prepare
    const repeated = selection({ seriesDescription: 'ep2d/diff: b1000' }, 'dwi', 'dwi', [
      ['x1', 1],
      ['x2', 1],
      ['x3', 2],
    ]);

    // Act
    const { bytes } = await buildDicomLayoutZip([repeated], { exportDate: new Date('2025-01-01T00:00:00Z') });

    // Assess
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    expect(view.getUint32(0, true)).toBe(0x04034b50);
    expect(view.getUint16(8, true)).toBe(8);
    const names = [...(await unzipFiles(bytes)).keys()].filter((name) => name.endsWith('.dcm')).sort();
    expect(names).toEqual(
      [1, 2, 3].map((n) => `sub-01/ses-001/dwi/ep2d_diff_b1000_Series003/sub-01_ses-001_dwi_000${n}.dcm`),
    );
  });

  it('bundles for the browser (esbuild, platform browser) so the upload wizard can run it', async () => {
    // Prepare
    const { build } = await import('esbuild');
    const entry = fileURLToPath(new URL('../../../shared/dicom/bids/dicom-layout.ts', import.meta.url));

    // Act
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });

    // Assess
    expect(result.errors).toEqual([]);
    const code = result.outputFiles[0]!.text;
    expect(code).toContain('BIDS_Export_');
    expect(code).not.toMatch(/from ?["']node:|require\(["'](fs|path|zlib|crypto)["']\)/);
  });
});
