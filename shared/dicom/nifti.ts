import * as nifti from 'nifti-reader-js';
import { Inflate } from 'pako';
import { concatBytes } from './bytes.ts';

/** NIfTI-1/2 datatype codes (nifti1.h) that the reader turns into typed arrays. */
export const NIFTI_DATATYPE = {
  UINT8: 2,
  INT16: 4,
  INT32: 8,
  FLOAT32: 16,
  FLOAT64: 64,
  RGB24: 128,
  INT8: 256,
  UINT16: 512,
  UINT32: 768,
} as const;

export type NiftiVoxels =
  Uint8Array | Int8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;

export type NiftiVolume = {
  header: nifti.NIFTI1 | nifti.NIFTI2;
  /** dim[0..7] as stored: dims[0] is the rank, dims[1..3] the spatial size, dims[4] the volumes. */
  dims: number[];
  pixDims: number[];
  /** Voxel → world (RAS+, mm) 4x4: the sform when set, else the qform, else the voxel sizes (nifti1.h methods 3, 2, 1). */
  affine: number[][];
  /** Voxel values as stored (not scaled; see `slope`/`intercept`), in platform byte order. RGB24 is 3 bytes a voxel. */
  data: NiftiVoxels;
  datatype: number;
  /** scl_slope/scl_inter with nifti1.h's rule that a slope of 0 means "no scaling". */
  slope: number;
  intercept: number;
};

export class NiftiReadError extends Error {
  override name = 'NiftiReadError';
}

/**
 * Reads a NIfTI-1 or NIfTI-2 image (.nii or .nii.gz) into header, geometry and voxels. Browser-safe.
 * @throws NiftiReadError when the bytes are not NIfTI or use a datatype this reader does not map.
 */
export function readNifti(bytes: Uint8Array): NiftiVolume {
  let buffer: ArrayBuffer = bytes.slice().buffer;
  if (nifti.isCompressed(buffer)) buffer = nifti.decompress(buffer) as ArrayBuffer;
  if (!nifti.isNIFTI(buffer)) throw new NiftiReadError('Not a NIfTI image');
  const header = nifti.readHeader(buffer);
  const image = nifti.readImage(header, buffer);
  const data = toTypedArray(image, header.datatypeCode, header.littleEndian);
  const slope = Number.isFinite(header.scl_slope) && header.scl_slope !== 0 ? header.scl_slope : 1;
  const intercept = Number.isFinite(header.scl_inter) && header.scl_slope !== 0 ? header.scl_inter : 0;
  return {
    header,
    dims: [...header.dims],
    pixDims: [...header.pixDims],
    affine: header.affine.map((row) => [...row]),
    data,
    datatype: header.datatypeCode,
    slope,
    intercept,
  };
}

/** Enough compressed input to inflate a NIfTI-2 header (540 bytes) plus extensions flag at any compression ratio seen. */
const HEADER_PROBE_BYTES = 64 * 1024;

/**
 * Reads only the header of a .nii or .nii.gz (inflating just its first bytes), for checks that need no voxels,
 * e.g. whether the image has a spatial transform. Browser-safe.
 * @throws NiftiReadError when the bytes are not NIfTI.
 */
export function readNiftiHeader(bytes: Uint8Array): nifti.NIFTI1 | nifti.NIFTI2 {
  let head = bytes;
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    const inflator = new Inflate();
    const chunks: Uint8Array[] = [];
    inflator.onData = (chunk) => chunks.push(chunk);
    inflator.push(bytes.subarray(0, HEADER_PROBE_BYTES), bytes.length <= HEADER_PROBE_BYTES);
    head = concatBytes(chunks);
  }
  const buffer = head.slice().buffer;
  if (!nifti.isNIFTI(buffer)) throw new NiftiReadError('Not a NIfTI image');
  return nifti.readHeader(buffer);
}

/** True when the header carries a qform or sform (nifti1.h methods 2 and 3); without one, tools assume an orientation. */
export function hasSpatialTransform(header: Pick<nifti.NIFTI1, 'qform_code' | 'sform_code'>): boolean {
  return header.qform_code > 0 || header.sform_code > 0;
}

/** Number of voxels in one 3D volume (dims[1]·dims[2]·dims[3]). */
export function voxelsPerVolume(volume: Pick<NiftiVolume, 'dims'>): number {
  const rank = Math.min(3, volume.dims[0] ?? 3);
  let count = 1;
  for (let axis = 1; axis <= rank; axis += 1) count *= Math.max(1, volume.dims[axis] ?? 1);
  return count;
}

function toTypedArray(image: ArrayBuffer, datatype: number, littleEndian: boolean): NiftiVoxels {
  const bytesPerValue = BYTES_PER_VALUE[datatype];
  if (bytesPerValue === undefined) throw new NiftiReadError(`Unsupported NIfTI datatype ${datatype}`);
  const copy = image.slice(0, image.byteLength - (image.byteLength % bytesPerValue));
  if (bytesPerValue > 1 && littleEndian !== isPlatformLittleEndian()) swapBytes(new Uint8Array(copy), bytesPerValue);
  switch (datatype) {
    case NIFTI_DATATYPE.UINT8:
    case NIFTI_DATATYPE.RGB24:
      return new Uint8Array(copy);
    case NIFTI_DATATYPE.INT8:
      return new Int8Array(copy);
    case NIFTI_DATATYPE.INT16:
      return new Int16Array(copy);
    case NIFTI_DATATYPE.UINT16:
      return new Uint16Array(copy);
    case NIFTI_DATATYPE.INT32:
      return new Int32Array(copy);
    case NIFTI_DATATYPE.UINT32:
      return new Uint32Array(copy);
    case NIFTI_DATATYPE.FLOAT32:
      return new Float32Array(copy);
    default:
      return new Float64Array(copy);
  }
}

const BYTES_PER_VALUE: Record<number, number> = {
  [NIFTI_DATATYPE.UINT8]: 1,
  [NIFTI_DATATYPE.RGB24]: 1,
  [NIFTI_DATATYPE.INT8]: 1,
  [NIFTI_DATATYPE.INT16]: 2,
  [NIFTI_DATATYPE.UINT16]: 2,
  [NIFTI_DATATYPE.INT32]: 4,
  [NIFTI_DATATYPE.UINT32]: 4,
  [NIFTI_DATATYPE.FLOAT32]: 4,
  [NIFTI_DATATYPE.FLOAT64]: 8,
};

function isPlatformLittleEndian(): boolean {
  return new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
}

function swapBytes(bytes: Uint8Array, width: number): void {
  for (let offset = 0; offset + width <= bytes.length; offset += width) {
    for (let low = offset, high = offset + width - 1; low < high; low += 1, high -= 1) {
      const swap = bytes[low]!;
      bytes[low] = bytes[high]!;
      bytes[high] = swap;
    }
  }
}
