import { readFileSync } from 'node:fs';
import type { NIFTI1 } from 'nifti-reader-js';
import { describe, expect, it } from 'vitest';
import { convertToNifti } from '#shared/dicom/convert.ts';
import { getDcm2niixVersion, loadDcm2niix } from '#shared/dicom/convert-dcm2niix.ts';
import { readNifti, type NiftiVolume } from '#shared/dicom/nifti.ts';
import { dataPath, readDicomFolder } from '#tests/unit/convert/data.ts';

function expectSameGeometry(actual: NiftiVolume, expected: NiftiVolume): void {
  expect(actual.dims).toEqual(expected.dims);
  expect(actual.datatype).toBe(expected.datatype);
  expect(actual.slope).toBe(expected.slope);
  expect(actual.intercept).toBe(expected.intercept);
  for (let axis = 1; axis <= 4; axis += 1) expect(actual.pixDims[axis]).toBeCloseTo(expected.pixDims[axis]!, 5);
  // dcm2niix writes NIfTI-1.
  const a = actual.header as NIFTI1;
  const e = expected.header as NIFTI1;
  expect([a.qform_code, a.sform_code]).toEqual([e.qform_code, e.sform_code]);
  for (const key of ['quatern_b', 'quatern_c', 'quatern_d', 'qoffset_x', 'qoffset_y', 'qoffset_z', 'qfac'] as const) {
    expect(a[key], key).toBeCloseTo(e[key], 4);
  }
  actual.affine.forEach((row, r) =>
    row.forEach((value, c) => expect(value, `affine[${r}][${c}]`).toBeCloseTo(expected.affine[r]![c]!, 4)),
  );
}

function countDifferences(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let differences = Math.abs(a.length - b.length);
  for (let index = 0; index < Math.min(a.length, b.length); index += 1) if (a[index] !== b[index]) differences += 1;
  return differences;
}

function parseNumberTable(text: string): number[][] {
  return text
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number));
}

describe('convertToNifti', () => {
  it.each(['1', '2', '3', '4', '5', '6', '7', '8', '9'])(
    'converts transfer-syntax file %s.dcm to the same voxels and geometry as the reference',
    async (id) => {
      // Prepare
      const bytes = new Uint8Array(readFileSync(dataPath('transfer-syntaxes', 'dicom', `${id}.dcm`)));
      const reference = readNifti(new Uint8Array(readFileSync(dataPath('transfer-syntaxes', 'ref', `${id}.nii`))));
      const referenceSidecar = JSON.parse(readFileSync(dataPath('transfer-syntaxes', 'ref', `${id}.json`), 'utf8'));

      // Act
      const outputs = await convertToNifti([{ name: `${id}.dcm`, bytes }]);

      // Assess
      expect(outputs).toHaveLength(1);
      const [output] = outputs;
      expect(output!.baseName).toBe(`${id}_ax_asc_35sl`);
      expect(output!.seriesNumber).toBe(Number(id));
      expect(output!.seriesInstanceUID).toMatch(/^[0-9.]+$/);
      expect(output!.nifti[0]).toBe(0x1f);
      const volume = readNifti(output!.nifti);
      expectSameGeometry(volume, reference);
      expect(volume.data.length).toBe(64 * 64 * 35);
      expect(countDifferences(volume.data, reference.data)).toBe(0);
      expect(output!.sidecar.SliceTiming).toEqual(referenceSidecar.SliceTiming);
    },
  );

  it('converts the GE 3D T1 with a sidecar that matches the reference on geometry keys', async () => {
    // Prepare
    const files = readDicomFolder(dataPath('ge-t1-ir-spgr', 'dicom'));
    const reference = JSON.parse(
      readFileSync(dataPath('ge-t1-ir-spgr', 'ref', 'Accelerated_SAG_IR-SPGR_10.json'), 'utf8'),
    );

    // Act
    const outputs = await convertToNifti(files);

    // Assess
    expect(outputs.map((output) => output.baseName)).toEqual(['10_Accelerated_SAG_IR-SPGR']);
    const [t1] = outputs;
    const volume = readNifti(t1!.nifti);
    expect(volume.dims.slice(0, 4)).toEqual([3, 196, 256, 256]);
    expect(t1!.bval).toBeUndefined();
    for (const key of [
      'ImageOrientationPatientDICOM',
      'SliceThickness',
      'SpacingBetweenSlices',
      'MRAcquisitionType',
      'PatientPosition',
      'InPlanePhaseEncodingDirectionDICOM',
      'AcquisitionMatrixPE',
      'ReconMatrixPE',
      'PercentPhaseFOV',
      'EchoTime',
      'RepetitionTime',
      'InversionTime',
      'FlipAngle',
      'SeriesNumber',
      'ImageType',
      'Modality',
    ]) {
      expect(t1!.sidecar[key], key).toEqual(reference[key]);
    }
  });

  it('gives the Philips DTI series the reference b-values and gradient directions', async () => {
    // Prepare
    const files = readDicomFolder(dataPath('philips-dti-b2000', 'dicom'));
    const referenceBval = readFileSync(dataPath('philips-dti-b2000', 'ref', 'WIP_dti_ax_601.bval'), 'utf8');
    const referenceBvec = readFileSync(dataPath('philips-dti-b2000', 'ref', 'WIP_dti_ax_601.bvec'), 'utf8');

    // Act
    const outputs = await convertToNifti(files);

    // Assess: the derived isotropic image (no sidecar) is dropped, the DWI volumes stay
    expect(outputs).toHaveLength(1);
    const [dti] = outputs;
    expect(dti!.seriesNumber).toBe(601);
    expect(parseNumberTable(dti!.bval!)).toEqual(parseNumberTable(referenceBval));
    const bvec = parseNumberTable(dti!.bvec!);
    const referenceTable = parseNumberTable(referenceBvec);
    expect(bvec.map((row) => row.length)).toEqual([16, 16, 16]);
    bvec.forEach((row, r) => row.forEach((value, c) => expect(value).toBeCloseTo(referenceTable[r]![c]!, 5)));
    expect(readNifti(dti!.nifti).dims.slice(0, 5)).toEqual([4, 80, 80, 40, 16]);
  });

  it('splits a mixed input into one output per series, ordered by series number, even when they share a SeriesInstanceUID, and skips non-DICOM files', async () => {
    // Prepare
    const files = ['3', '1'].map((id) => ({
      name: `${id}.dcm`,
      bytes: new Uint8Array(readFileSync(dataPath('transfer-syntaxes', 'dicom', `${id}.dcm`))),
    }));
    files.push({ name: 'notes.txt', bytes: new TextEncoder().encode('not an image') });

    // Act
    const outputs = await convertToNifti(files);

    // Assess
    expect(outputs.map((output) => output.seriesNumber)).toEqual([1, 3]);
    expect(outputs.map((output) => output.baseName)).toEqual(['1_ax_asc_35sl', '3_ax_asc_35sl']);
  });

  it('converts gzip-compressed DICOM (Siemens mosaic DWI) after unpacking it', async () => {
    // Prepare
    const files = readDicomFolder(dataPath('siemens-dwi-mosaic'));

    // Act
    const outputs = await convertToNifti(files);

    // Assess
    expect(outputs.length).toBeGreaterThan(0);
    for (const output of outputs) expect(readNifti(output.nifti).dims[1]).toBeGreaterThan(0);
  });

  it('loads the WASM module once and leaves nothing of a run in its file system', async () => {
    // Prepare
    const module = await loadDcm2niix();
    const bytes = new Uint8Array(readFileSync(dataPath('transfer-syntaxes', 'dicom', '2.dcm')));

    // Act
    await convertToNifti([{ name: 'a/b/2.dcm', bytes }]);
    await convertToNifti([{ name: '2.dcm', bytes }]);

    // Assess
    expect(await loadDcm2niix()).toBe(module);
    expect(module.FS.readdir('/').filter((name) => name.startsWith('run-'))).toEqual([]);
    expect(await getDcm2niixVersion()).toMatch(/^v1\.0\.\d{8}$/);
  });
});
