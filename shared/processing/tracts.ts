import { readVolume, writeVolume } from './nifti-io.ts';
import {
  B0_THRESHOLD,
  countDirections,
  fitTensor,
  GradientTableError,
  parseGradientTable,
  type GradientTable,
} from './tensor.ts';
import { DEFAULT_TRACKING, trackStreamlines, type TrackingOptions } from './tracking.ts';
import { writeTrk } from './trk.ts';
import { computeMask, type Dims3 } from './volume-ops.ts';

export { fitTensor, GradientTableError } from './tensor.ts';

/** A tensor needs six unknowns besides S0: fewer distinct directions cannot be fitted. */
export const MIN_TENSOR_DIRECTIONS = 6;

export class InsufficientDirectionsError extends Error {
  override name = 'InsufficientDirectionsError';
}

export type TractsResult = {
  fa: Uint8Array;
  colorFa: Uint8Array;
  trk: Uint8Array;
  metadata: {
    streamlines: number;
    directions: number;
    bValues: number[];
    meanFa: number;
    seconds: number;
    maskVoxels: number;
    /** Mean diffusivity in the brain mask, 10⁻³ mm²/s. */
    meanMd: number;
    /** Mean b0 in the brain / background noise σ (Rician-corrected), a simple signal-to-noise figure. */
    snrB0: number;
    tensorSeconds: number;
    trackingSeconds: number;
  };
};

/**
 * Rotates FSL/dcm2niix gradient vectors into the frame of the voxel axes. FSL's bvecs are given along the voxel axes
 * of the image as if stored radiologically (negative determinant); for an image stored with a positive determinant
 * the x component flips (FSL FDT documentation; dcm2niix writes this convention).
 */
export function gradientsInVoxelFrame(table: GradientTable, affine: number[][]): GradientTable {
  const m = (r: number, c: number): number => (affine[r] as number[])[c] as number;
  const det =
    m(0, 0) * (m(1, 1) * m(2, 2) - m(1, 2) * m(2, 1)) -
    m(0, 1) * (m(1, 0) * m(2, 2) - m(1, 2) * m(2, 0)) +
    m(0, 2) * (m(1, 0) * m(2, 1) - m(1, 1) * m(2, 0));
  if (det <= 0) return table;
  return { bValues: table.bValues, directions: table.directions.map(([x, y, z]) => [-x, y, z]) };
}

/** Mean of the b≈0 volumes (the mask is computed on it). */
export function meanB0(data: Float32Array, voxels: number, bValues: number[]): Float32Array {
  const b0 = new Float32Array(voxels);
  const indices = bValues.map((b, i) => (b <= B0_THRESHOLD ? i : -1)).filter((i) => i >= 0);
  if (indices.length === 0) throw new InsufficientDirectionsError('The diffusion series has no b=0 volume');
  for (const t of indices)
    for (let v = 0; v < voxels; v++) b0[v] = (b0[v] as number) + (data[t * voxels + v] as number);
  for (let v = 0; v < voxels; v++) b0[v] = (b0[v] as number) / indices.length;
  return b0;
}

/**
 * TRACT assets of a diffusion series: FA (float32 NIfTI), colour FA (RGB24 NIfTI, |v1| along the voxel axes
 * weighted by FA: red left-right, green anterior-posterior, blue inferior-superior for axial storage) and
 * deterministic streamlines (.trk). Brain mask: Otsu on the smoothed mean b0, largest component, holes filled.
 */
export async function buildTracts(
  input: { nifti: Uint8Array; bval: string; bvec: string },
  options: Partial<TrackingOptions> = {},
): Promise<TractsResult> {
  const started = performance.now();
  const volume = readVolume(input.nifti);
  const [nx, ny, nz, nt] = volume.dims;
  const dims: Dims3 = [nx, ny, nz];
  const voxels = nx * ny * nz;
  const table = parseGradientTable(input.bval, input.bvec);
  if (table.bValues.length !== nt)
    throw new GradientTableError(`The series has ${nt} volumes but bval lists ${table.bValues.length}`);
  const directions = countDirections(table);
  if (directions < MIN_TENSOR_DIRECTIONS) {
    throw new InsufficientDirectionsError(
      `A tensor fit needs at least ${MIN_TENSOR_DIRECTIONS} diffusion directions; the series has ${directions}`,
    );
  }
  const b0 = meanB0(volume.data, voxels, table.bValues);
  const { mask, voxels: maskVoxels, threshold } = computeMask(b0, dims);
  const tensorStarted = performance.now();
  const fit = fitTensor(volume.data, voxels, gradientsInVoxelFrame(table, volume.affine), mask);
  const tensorSeconds = (performance.now() - tensorStarted) / 1000;
  const trackingStarted = performance.now();
  const streamlines = trackStreamlines(
    { dims, voxelSize: volume.voxelSize, fa: fit.fa, v1: fit.v1, mask },
    { ...DEFAULT_TRACKING, ...options },
  );
  const trackingSeconds = (performance.now() - trackingStarted) / 1000;
  const rgb = new Uint8Array(voxels * 3);
  let faSum = 0;
  let mdSum = 0;
  for (let v = 0; v < voxels; v++) {
    const f = Math.min(1, fit.fa[v] as number);
    if (mask[v]) {
      faSum += f;
      mdSum += fit.md[v] as number;
    }
    for (let a = 0; a < 3; a++)
      rgb[v * 3 + a] = Math.round(255 * f * Math.min(1, Math.abs(fit.v1[v * 3 + a] as number)));
  }
  const geometry = {
    dims: [nx, ny, nz] as [number, number, number],
    voxelSize: volume.voxelSize,
    affine: volume.affine,
  };
  const fa = writeVolume({ ...geometry, datatype: 'float32', data: fit.fa, description: 'FA (WLS tensor fit)' });
  const colorFa = writeVolume({ ...geometry, datatype: 'rgb24', data: rgb, description: 'colour FA |V1|*FA' });
  const trk = writeTrk({ ...geometry, streamlines });
  const bValues = [...new Set(table.bValues.map((b) => Math.round(b)))].sort((a, b) => a - b);
  return {
    fa,
    colorFa,
    trk,
    metadata: {
      streamlines: streamlines.length,
      directions,
      bValues,
      meanFa: maskVoxels ? Number((faSum / maskVoxels).toFixed(4)) : 0,
      seconds: Number(((performance.now() - started) / 1000).toFixed(3)),
      maskVoxels,
      meanMd: maskVoxels ? Number(((mdSum / maskVoxels) * 1000).toFixed(4)) : 0,
      snrB0: Number(signalToNoise(b0, mask, threshold).toFixed(1)),
      tensorSeconds: Number(tensorSeconds.toFixed(3)),
      trackingSeconds: Number(trackingSeconds.toFixed(3)),
    },
  };
}

/**
 * SNR of the b0 image: mean signal in the brain over the noise σ of the background (air below the mask threshold,
 * outside the mask). Magnitude images have Rician background noise: σ = background standard deviation / 0.655
 * (Henkelman 1985). Returns 0 when there is no background to measure.
 */
export function signalToNoise(b0: Float32Array, mask: Uint8Array, threshold: number): number {
  let signal = 0,
    inside = 0,
    sum = 0,
    sumSquares = 0,
    outside = 0;
  for (let v = 0; v < b0.length; v++) {
    const value = b0[v] as number;
    if (mask[v]) {
      signal += value;
      inside++;
      continue;
    }
    if (value >= threshold) continue;
    sum += value;
    sumSquares += value * value;
    outside++;
  }
  if (inside === 0 || outside < 2) return 0;
  const mean = sum / outside;
  const sd = Math.sqrt(Math.max(0, sumSquares / outside - mean * mean));
  return sd > 0 ? signal / inside / (sd / 0.655) : 0;
}
