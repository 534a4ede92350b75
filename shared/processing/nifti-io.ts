import * as nifti from 'nifti-reader-js';
import { gzip } from 'pako';
import { NIFTI_DATATYPE, NiftiReadError, readNifti } from '#shared/dicom/nifti.ts';

/**
 * NIfTI-1 volumes for the asset builders. Reading goes through the engine's reader (nifti-reader-js, gzip included);
 * writing is the 348-byte NIfTI-1 header of the standard (nifti1.h) followed by the voxels, gzip-compressed,
 * because nifti-reader-js only reads.
 */
export type Volume = {
  /** x, y, z, t (t = 1 for 3D). */
  dims: [number, number, number, number];
  /** Voxel size in mm along x, y, z. */
  voxelSize: [number, number, number];
  /** Voxel index (i, j, k) → RAS+ mm, row-major 4x4 (sform, else qform, else scaled identity). */
  affine: number[][];
  /** Scaled voxel values (scl_slope/scl_inter applied), x fastest, then y, z, t. */
  data: Float32Array;
};

/** Reads a .nii or .nii.gz (through the engine's reader, shared/dicom/nifti.ts) into a scaled Float32 volume. */
export function readVolume(bytes: Uint8Array): Volume {
  const image = readNifti(bytes);
  if (image.datatype === NIFTI_DATATYPE.RGB24) throw new NiftiReadError('An RGB image is not a scalar volume');
  const rank = image.dims[0] ?? 3;
  const nx = Math.max(1, image.dims[1] ?? 1);
  const ny = rank >= 2 ? Math.max(1, image.dims[2] ?? 1) : 1;
  const nz = rank >= 3 ? Math.max(1, image.dims[3] ?? 1) : 1;
  const nt = rank >= 4 ? Math.max(1, image.dims[4] ?? 1) : 1;
  const count = nx * ny * nz * nt;
  if (image.data.length < count)
    throw new NiftiReadError(`NIfTI holds ${image.data.length} values, its dimensions need ${count}`);
  const data = new Float32Array(count);
  const { slope, intercept } = image;
  for (let i = 0; i < count; i++) data[i] = (image.data[i] as number) * slope + intercept;
  const voxelSize: [number, number, number] = [1, 2, 3].map((a) => Math.abs(image.pixDims[a] ?? 1) || 1) as [
    number,
    number,
    number,
  ];
  return { dims: [nx, ny, nz, nt], voxelSize, affine: image.affine.map((row) => [...row]), data };
}

/** Dimensions and voxel size from the header alone (only the first bytes of a .nii.gz are inflated). */
export async function readGeometry(
  bytes: Uint8Array,
): Promise<{ dims: [number, number, number, number]; voxelSize: [number, number, number] }> {
  let buffer = bytes.slice(0, Math.min(bytes.length, 1 << 16)).buffer as ArrayBuffer;
  if (nifti.isCompressed(buffer))
    buffer = (await nifti.decompressHeaderAsync(bytes.slice().buffer as ArrayBuffer, 544)) as ArrayBuffer;
  const header = nifti.readHeader(buffer, true);
  const rank = header.dims[0] ?? 3;
  const dim = (a: number): number => (rank >= a ? Math.max(1, header.dims[a] ?? 1) : 1);
  return {
    dims: [dim(1), dim(2), dim(3), dim(4)],
    voxelSize: [1, 2, 3].map((a) => Math.abs(header.pixDims[a] ?? 1) || 1) as [number, number, number],
  };
}

/** Applies a 4x4 affine to a point. */
export function applyAffine(affine: number[][], x: number, y: number, z: number): [number, number, number] {
  const r = (i: number): number => {
    const row = affine[i] as number[];
    return (row[0] as number) * x + (row[1] as number) * y + (row[2] as number) * z + (row[3] as number);
  };
  return [r(0), r(1), r(2)];
}

export type WriteVolumeInput = {
  dims: [number, number, number, number?];
  voxelSize: [number, number, number];
  affine: number[][];
  description?: string;
  intent?: { code: number; name: string };
} & ({ datatype: 'float32'; data: Float32Array } | { datatype: 'rgb24'; data: Uint8Array /* r,g,b per voxel */ });

/**
 * Writes a NIfTI-1 single file (.nii.gz): sform and qform both set from the affine (code 1, scanner anatomical),
 * units mm. The qform is derived from the rotation part of the affine (nifti1_io's mat44_to_quatern).
 */
export function writeVolume(input: WriteVolumeInput): Uint8Array {
  const [nx, ny, nz] = input.dims;
  const nt = input.dims[3] ?? 1;
  const isRgb = input.datatype === 'rgb24';
  const bytesPerVoxel = isRgb ? 3 : 4;
  const voxels = nx * ny * nz * nt;
  const expected = isRgb ? voxels * 3 : voxels;
  if (input.data.length !== expected)
    throw new Error(`NIfTI data length ${input.data.length} does not match dims (${expected})`);
  const headerSize = 352;
  const out = new Uint8Array(headerSize + voxels * bytesPerVoxel);
  const view = new DataView(out.buffer);
  view.setInt32(0, 348, true);
  view.setInt8(39, 0);
  const dimCount = nt > 1 ? 4 : 3;
  const dims = [dimCount, nx, ny, nz, nt, 1, 1, 1];
  dims.forEach((d, i) => view.setInt16(40 + i * 2, d, true));
  if (input.intent) view.setInt16(68, input.intent.code, true);
  view.setInt16(70, isRgb ? NIFTI_DATATYPE.RGB24 : NIFTI_DATATYPE.FLOAT32, true);
  view.setInt16(72, isRgb ? 24 : 32, true);
  const { quatern, qfac } = affineToQuatern(input.affine);
  const pixdim = [qfac, input.voxelSize[0], input.voxelSize[1], input.voxelSize[2], 1, 1, 1, 1];
  pixdim.forEach((p, i) => view.setFloat32(76 + i * 4, p, true));
  view.setFloat32(108, headerSize, true);
  view.setFloat32(112, 1, true);
  view.setFloat32(116, 0, true);
  view.setUint8(123, 2 | 8);
  writeAscii(out, 148, 80, input.description ?? '');
  view.setInt16(252, 1, true);
  view.setInt16(254, 1, true);
  quatern.forEach((q, i) => view.setFloat32(256 + i * 4, q, true));
  for (let r = 0; r < 3; r++)
    for (let c = 0; c < 4; c++) view.setFloat32(280 + r * 16 + c * 4, (input.affine[r] as number[])[c] as number, true);
  if (input.intent) writeAscii(out, 328, 16, input.intent.name);
  writeAscii(out, 344, 4, 'n+1\0');
  if (isRgb) out.set(input.data as Uint8Array, headerSize);
  else {
    const data = input.data as Float32Array;
    for (let i = 0; i < voxels; i++) view.setFloat32(headerSize + i * 4, data[i] as number, true);
  }
  return gzip(out);
}

function writeAscii(out: Uint8Array, offset: number, length: number, text: string): void {
  for (let i = 0; i < Math.min(length, text.length); i++) out[offset + i] = text.charCodeAt(i) & 0x7f;
}

/** nifti1_io.c nifti_mat44_to_quatern: quaternion b, c, d and offsets x, y, z, plus qfac (the handedness). */
function affineToQuatern(affine: number[][]): { quatern: number[]; qfac: number } {
  const a = (r: number, c: number): number => (affine[r] as number[])[c] as number;
  let r11 = a(0, 0),
    r12 = a(0, 1),
    r13 = a(0, 2);
  let r21 = a(1, 0),
    r22 = a(1, 1),
    r23 = a(1, 2);
  let r31 = a(2, 0),
    r32 = a(2, 1),
    r33 = a(2, 2);
  const xd = Math.hypot(r11, r21, r31) || 1;
  const yd = Math.hypot(r12, r22, r32) || 1;
  const zd = Math.hypot(r13, r23, r33) || 1;
  r11 /= xd;
  r21 /= xd;
  r31 /= xd;
  r12 /= yd;
  r22 /= yd;
  r32 /= yd;
  r13 /= zd;
  r23 /= zd;
  r33 /= zd;
  const det = r11 * r22 * r33 - r11 * r32 * r23 - r21 * r12 * r33 + r21 * r32 * r13 + r31 * r12 * r23 - r31 * r22 * r13;
  let qfac = 1;
  if (det < 0) {
    qfac = -1;
    r13 = -r13;
    r23 = -r23;
    r33 = -r33;
  }
  let qa = r11 + r22 + r33 + 1;
  let qb: number, qc: number, qd: number;
  if (qa > 0.5) {
    qa = 0.5 * Math.sqrt(qa);
    qb = (0.25 * (r32 - r23)) / qa;
    qc = (0.25 * (r13 - r31)) / qa;
    qd = (0.25 * (r21 - r12)) / qa;
  } else {
    const xx = 1 + r11 - (r22 + r33),
      yy = 1 + r22 - (r11 + r33),
      zz = 1 + r33 - (r11 + r22);
    if (xx > 1) {
      qb = 0.5 * Math.sqrt(xx);
      qc = (0.25 * (r12 + r21)) / qb;
      qd = (0.25 * (r13 + r31)) / qb;
      qa = (0.25 * (r32 - r23)) / qb;
    } else if (yy > 1) {
      qc = 0.5 * Math.sqrt(yy);
      qb = (0.25 * (r12 + r21)) / qc;
      qd = (0.25 * (r23 + r32)) / qc;
      qa = (0.25 * (r13 - r31)) / qc;
    } else {
      qd = 0.5 * Math.sqrt(zz);
      qb = (0.25 * (r13 + r31)) / qd;
      qc = (0.25 * (r23 + r32)) / qd;
      qa = (0.25 * (r21 - r12)) / qd;
    }
    if (qa < 0) {
      qb = -qb;
      qc = -qc;
      qd = -qd;
    }
  }
  return { quatern: [qb, qc, qd, a(0, 3), a(1, 3), a(2, 3)], qfac };
}
