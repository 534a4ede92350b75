import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  hasSpatialTransform,
  NiftiReadError,
  readNifti,
  readNiftiHeader,
  voxelsPerVolume,
} from '#shared/dicom/nifti.ts';
import { dataPath } from './data.ts';

/** The reference NIfTI of transfer-syntax file 1, byte-swapped to big endian (header fields and int16 voxels). */
function toBigEndian(bytes: Uint8Array): Uint8Array {
  const source = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Uint8Array(bytes);
  const target = new DataView(out.buffer);
  const swap16 = (offset: number) => target.setInt16(offset, source.getInt16(offset, true), false);
  const swap32 = (offset: number) => target.setUint32(offset, source.getUint32(offset, true), false);
  swap32(0);
  for (let offset = 40; offset < 56; offset += 2) swap16(offset); // dim
  for (const offset of [56, 60, 64]) swap32(offset); // intent_p1..3
  for (const offset of [68, 70, 72, 74]) swap16(offset); // intent_code, datatype, bitpix, slice_start
  for (let offset = 76; offset < 108; offset += 4) swap32(offset); // pixdim[0..7]
  for (const offset of [108, 112, 116]) swap32(offset); // vox_offset, scl_slope, scl_inter
  swap16(120); // slice_end
  for (const offset of [124, 128, 132, 136, 140]) swap32(offset); // cal_max, cal_min, slice_duration, toffset, glmax
  swap32(144); // glmin
  swap16(252);
  swap16(254);
  for (let offset = 256; offset < 328; offset += 4) swap32(offset); // quatern, qoffset, srow
  const voxOffset = source.getFloat32(108, true);
  for (let offset = voxOffset; offset + 1 < bytes.length; offset += 2) swap16(offset);
  return out;
}

describe('readNifti', () => {
  const reference = new Uint8Array(readFileSync(dataPath('transfer-syntaxes', 'ref', '1.nii')));

  it('reads .nii and .nii.gz to the same header, affine and voxels', () => {
    // Act
    const plain = readNifti(reference);
    const packed = readNifti(new Uint8Array(gzipSync(reference)));

    // Assess
    expect(plain.dims.slice(0, 4)).toEqual([3, 64, 64, 35]);
    expect(voxelsPerVolume(plain)).toBe(64 * 64 * 35);
    expect(packed.affine).toEqual(plain.affine);
    expect(packed.data).toEqual(plain.data);
    expect(plain.data).toBeInstanceOf(Int16Array);
  });

  it('reads big-endian files into platform order', () => {
    // Act
    const little = readNifti(reference);
    const big = readNifti(toBigEndian(reference));

    // Assess
    expect(big.header.littleEndian).toBe(false);
    expect(big.dims).toEqual(little.dims);
    expect(big.affine).toEqual(little.affine);
    expect(big.data).toEqual(little.data);
  });

  it('reads just the header of a .nii.gz and tells whether it has a spatial transform', () => {
    // Act
    const header = readNiftiHeader(new Uint8Array(gzipSync(reference)));

    // Assess
    expect(header.dims.slice(0, 4)).toEqual([3, 64, 64, 35]);
    expect(hasSpatialTransform(header)).toBe(true);
    expect(hasSpatialTransform({ qform_code: 0, sform_code: 0 })).toBe(false);
  });

  it('rejects bytes that are not NIfTI', () => {
    expect(() => readNifti(new TextEncoder().encode('not an image'))).toThrow(NiftiReadError);
    expect(() => readNiftiHeader(new Uint8Array(gzipSync(new Uint8Array(400))))).toThrow('Not a NIfTI image');
  });
});
