import { readFileSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBidsDataset, zipBidsDataset, type BidsSeriesInput } from '#shared/dicom/bids/bids-dataset.ts';
import { unzipFiles } from '#shared/dicom/bids/zip.ts';
import { convertToNifti, type NiftiOutput } from '#shared/dicom/convert.ts';
import { dataPath } from '#tests/unit/convert/data.ts';
import { describeIssues, runBidsValidator, writeDatasetFolder } from './validator.ts';

/** A 2x2x2 int16 NIfTI-1 (.nii) with or without a scanner qform (nifti1.h header layout). */
function tinyNifti(withTransform = true): Uint8Array {
  const bytes = new Uint8Array(352 + 16);
  const view = new DataView(bytes.buffer);
  view.setInt32(0, 348, true);
  [3, 2, 2, 2, 1, 1, 1, 1].forEach((value, index) => view.setInt16(40 + index * 2, value, true));
  view.setInt16(70, 4, true);
  view.setInt16(72, 16, true);
  [1, 1, 1, 1, 1, 1, 1, 1].forEach((value, index) => view.setFloat32(76 + index * 4, value, true));
  view.setFloat32(108, 352, true);
  view.setInt16(252, withTransform ? 1 : 0, true); // qform_code
  bytes.set([0x6e, 0x2b, 0x31, 0x00], 344);
  return bytes;
}

function fakeOutput(overrides: Partial<NiftiOutput>): NiftiOutput {
  return { baseName: 'x', nifti: tinyNifti(), sidecar: { RepetitionTime: 2 }, ...overrides };
}

describe('buildBidsDataset naming', () => {
  it('numbers runs only where datatype and suffix repeat, in series order, and writes bval/bvec for dwi', () => {
    // Prepare
    const series: BidsSeriesInput[] = [
      { output: fakeOutput({ baseName: '5_t1b', seriesNumber: 5 }), bids: { datatype: 'anat', suffix: 'T1w' } },
      { output: fakeOutput({ baseName: '2_t1a', seriesNumber: 2 }), bids: { datatype: 'anat', suffix: 'T1w' } },
      { output: fakeOutput({ baseName: '3_t2', seriesNumber: 3 }), bids: { datatype: 'anat', suffix: 'T2w' } },
      {
        output: fakeOutput({ baseName: '4_dwi', seriesNumber: 4, bval: '0 1000', bvec: '0 1\n0 0\n0 0' }),
        bids: { datatype: 'dwi', suffix: 'dwi' },
      },
    ];

    // Act
    const { files, entries, skipped } = buildBidsDataset(series, { subject: 'P-01', session: 'base line' });

    // Assess
    expect(entries.map((entry) => [entry.seriesNumber, entry.path])).toEqual([
      [2, 'sub-P01/ses-baseline/anat/sub-P01_ses-baseline_run-1_T1w.nii.gz'],
      [3, 'sub-P01/ses-baseline/anat/sub-P01_ses-baseline_T2w.nii.gz'],
      [4, 'sub-P01/ses-baseline/dwi/sub-P01_ses-baseline_dwi.nii.gz'],
      [5, 'sub-P01/ses-baseline/anat/sub-P01_ses-baseline_run-2_T1w.nii.gz'],
    ]);
    expect(files.get('sub-P01/ses-baseline/dwi/sub-P01_ses-baseline_dwi.bval')).toBe('0 1000\n');
    expect(files.get('participants.tsv')).toBe('participant_id\nsub-P01\n');
    expect(JSON.parse(files.get('dataset_description.json') as string)).toMatchObject({
      BIDSVersion: '1.8.0',
      DatasetType: 'raw',
    });
    expect(skipped).toEqual([]);
  });

  it('gives functional series a task entity and TaskName, and skips series it cannot write validly', () => {
    // Prepare
    const series: BidsSeriesInput[] = [
      {
        output: fakeOutput({
          baseName: '1_rest',
          seriesNumber: 1,
          sidecar: { SeriesDescription: 'fMRI resting state', RepetitionTime: 2 },
        }),
        bids: { datatype: 'func', suffix: 'bold' },
      },
      { output: fakeOutput({ baseName: '2_asl', seriesNumber: 2 }), bids: { datatype: 'perf', suffix: 'asl' } },
      { output: fakeOutput({ baseName: '3_dwi', seriesNumber: 3 }), bids: { datatype: 'dwi', suffix: 'dwi' } },
      {
        output: fakeOutput({ baseName: '4_t1', seriesNumber: 4, nifti: tinyNifti(false) }),
        bids: { datatype: 'anat', suffix: 'T1w' },
      },
    ];

    // Act
    const { files, entries, skipped } = buildBidsDataset(series, { subject: '01' });

    // Assess
    expect(entries.map((entry) => entry.path)).toEqual(['sub-01/func/sub-01_task-rest_bold.nii.gz']);
    expect(JSON.parse(files.get('sub-01/func/sub-01_task-rest_bold.json') as string).TaskName).toBe('rest');
    expect(skipped.map((item) => [item.seriesNumber, item.reason])).toEqual([
      [2, 'BIDS perf/asl needs metadata the DICOM conversion does not provide'],
      [3, 'diffusion series without b-values and gradient directions'],
      [4, 'no spatial orientation in the DICOM (Image Orientation/Position missing)'],
    ]);
  });

  it('names the entities the headers give, in BIDS order, where the datatype allows them, numbering runs within them', () => {
    // Prepare
    const rest = (seriesNumber: number) =>
      fakeOutput({
        baseName: `${seriesNumber}_rest`,
        seriesNumber,
        sidecar: { SeriesDescription: 'resting state', RepetitionTime: 2 },
      });
    const series: BidsSeriesInput[] = [
      { output: rest(1), bids: { datatype: 'func', suffix: 'bold', entities: { dir: 'AP' } } },
      { output: rest(2), bids: { datatype: 'func', suffix: 'bold', entities: { dir: 'PA' } } },
      { output: rest(3), bids: { datatype: 'func', suffix: 'bold', entities: { dir: 'AP', part: 'phase' } } },
      { output: rest(4), bids: { datatype: 'func', suffix: 'bold', entities: { dir: 'AP' } } },
      {
        output: fakeOutput({ baseName: '5_t1c', seriesNumber: 5 }),
        bids: { datatype: 'anat', suffix: 'T1w', entities: { ce: 'gadolinium', dir: 'AP', echo: '1' } },
      },
    ];

    // Act
    const { entries } = buildBidsDataset(series, { subject: '01' });

    // Assess: dir is not a T1w entity, nor echo; run numbers only the two dir-AP magnitude runs.
    expect(entries.map((entry) => entry.path)).toEqual([
      'sub-01/func/sub-01_task-rest_dir-AP_run-1_bold.nii.gz',
      'sub-01/func/sub-01_task-rest_dir-PA_bold.nii.gz',
      'sub-01/func/sub-01_task-rest_dir-AP_part-phase_bold.nii.gz',
      'sub-01/func/sub-01_task-rest_dir-AP_run-2_bold.nii.gz',
      'sub-01/anat/sub-01_ce-gadolinium_T1w.nii.gz',
    ]);
  });

  it('refuses a subject label without letters or digits', () => {
    expect(() => buildBidsDataset([], { subject: '--' })).toThrow(
      'A BIDS subject label needs at least one letter or digit',
    );
  });
});

describe('buildBidsDataset with bids-validator', () => {
  let first: NiftiOutput;
  let second: NiftiOutput;
  const folders: string[] = [];

  beforeAll(async () => {
    const tsFiles = ['1', '2'].map((id) => ({
      name: `${id}.dcm`,
      bytes: new Uint8Array(readFileSync(dataPath('transfer-syntaxes', 'dicom', `${id}.dcm`))),
    }));
    // Two real converted series (the same EPI mosaic stored as series 1 and 2); the shared studies run in iws-bids.test.ts.
    [first, second] = (await convertToNifti(tsFiles)) as [NiftiOutput, NiftiOutput];
  });

  afterAll(() => {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it('passes the validator with zero errors when two series share a suffix (run indices), through a ZIP round trip', async () => {
    // Prepare
    const dataset = buildBidsDataset(
      [
        { output: first, bids: { datatype: 'anat', suffix: 'T2w' } },
        { output: second, bids: { datatype: 'anat', suffix: 'T2w' } },
      ],
      { subject: '07', session: '1' },
    );

    // Act
    const files = await unzipFiles(await zipBidsDataset(dataset));
    const folder = writeDatasetFolder(files);
    folders.push(folder);
    const report = runBidsValidator(folder);

    // Assess
    expect(describeIssues(report.issues.errors)).toEqual([]);
    expect([...files.keys()].filter((path) => path.endsWith('.nii.gz')).sort()).toEqual([
      'sub-07/ses-1/anat/sub-07_ses-1_run-1_T2w.nii.gz',
      'sub-07/ses-1/anat/sub-07_ses-1_run-2_T2w.nii.gz',
    ]);
  });

  it('passes the validator with header entities in the names (a post-contrast T1 and its pre-contrast twin)', () => {
    // Prepare
    const dataset = buildBidsDataset(
      [
        { output: first, bids: { datatype: 'anat', suffix: 'T1w' } },
        { output: second, bids: { datatype: 'anat', suffix: 'T1w', entities: { ce: 'gadolinium' } } },
      ],
      { subject: '08' },
    );
    const folder = writeDatasetFolder(dataset.files);
    folders.push(folder);

    // Act
    const report = runBidsValidator(folder);

    // Assess: different entities, so no run numbers.
    expect(describeIssues(report.issues.errors)).toEqual([]);
    expect(dataset.entries.map((entry) => entry.path)).toEqual([
      'sub-08/anat/sub-08_T1w.nii.gz',
      'sub-08/anat/sub-08_ce-gadolinium_T1w.nii.gz',
    ]);
  });

  it('is checked for real: the validator reports errors once a dwi gradient file is removed', () => {
    // Prepare
    const dataset = buildBidsDataset(
      [{ output: { ...first, bval: '0\n', bvec: '0\n0\n0\n' }, bids: { datatype: 'dwi', suffix: 'dwi' } }],
      { subject: '01' },
    );
    dataset.files.delete('sub-01/dwi/sub-01_dwi.bvec');
    const folder = writeDatasetFolder(dataset.files);
    folders.push(folder);

    // Act
    const report = runBidsValidator(folder);

    // Assess
    expect(report.issues.errors.length).toBeGreaterThan(0);
  });
});
