import type { Dims3 } from './volume-ops.ts';

/**
 * Deterministic streamline tractography (Basser et al. 2000; Mori's FACT family with interpolation): from each seed,
 * step along the principal eigenvector, both ways, until anisotropy drops, the path bends too sharply, or it leaves
 * the brain mask.
 */
export type TrackingOptions = {
  /** Voxels with FA above this seed one streamline each (at the voxel centre). */
  seedFa: number;
  /** Tracking stops where the interpolated FA falls below this. */
  stopFa: number;
  /** Step length as a fraction of the smallest voxel edge. */
  stepVoxels: number;
  /** Largest angle between two successive steps, degrees. */
  maxAngleDegrees: number;
  /** Streamlines shorter than this (mm) are dropped. */
  minLengthMm: number;
  /** A streamline stops growing at this length (mm). */
  maxLengthMm: number;
  /** At most this many seeds (evenly sub-sampled, deterministic) to keep the .trk a size a browser can load. */
  maxSeeds: number;
};

export const DEFAULT_TRACKING: TrackingOptions = {
  seedFa: 0.3,
  stopFa: 0.15,
  stepVoxels: 0.5,
  maxAngleDegrees: 45,
  minLengthMm: 10,
  maxLengthMm: 250,
  maxSeeds: 20_000,
};

export type TrackingInput = {
  dims: Dims3;
  voxelSize: [number, number, number];
  fa: Float32Array;
  /** Principal eigenvector per voxel along the voxel axes (unit length in mm space, x, y, z interleaved). */
  v1: Float32Array;
  mask: Uint8Array;
};

/** Returns streamlines as voxel index coordinates (x, y, z interleaved per point). */
export function trackStreamlines(input: TrackingInput, options: TrackingOptions = DEFAULT_TRACKING): Float32Array[] {
  const { dims, voxelSize, fa, v1, mask } = input;
  const [nx, ny, nz] = dims;
  const stepMm = options.stepVoxels * Math.min(...voxelSize);
  const maxSteps = Math.ceil(options.maxLengthMm / stepMm);
  const cosMax = Math.cos((options.maxAngleDegrees * Math.PI) / 180);
  const seeds: number[] = [];
  for (let i = 0; i < fa.length; i++) if (mask[i] && (fa[i] as number) > options.seedFa) seeds.push(i);
  const stride = Math.max(1, seeds.length / options.maxSeeds);
  const streamlines: Float32Array[] = [];
  const direction = new Float64Array(3);
  const sample = new Float64Array(4);

  /** Trilinear FA and FA-weighted, sign-aligned eigenvector at a continuous index position; false outside the volume or mask. */
  const interpolate = (x: number, y: number, z: number, reference: Float64Array): boolean => {
    if (x < 0 || y < 0 || z < 0 || x > nx - 1 || y > ny - 1 || z > nz - 1) return false;
    const nearest = Math.round(x) + nx * (Math.round(y) + ny * Math.round(z));
    if (!mask[nearest]) return false;
    const x0 = Math.min(Math.floor(x), Math.max(0, nx - 2)),
      y0 = Math.min(Math.floor(y), Math.max(0, ny - 2)),
      z0 = Math.min(Math.floor(z), Math.max(0, nz - 2));
    const fx = x - x0,
      fy = y - y0,
      fz = z - z0;
    sample.fill(0);
    for (let c = 0; c < 8; c++) {
      const dx = c & 1,
        dy = (c >> 1) & 1,
        dz = (c >> 2) & 1;
      const xi = Math.min(nx - 1, x0 + dx),
        yi = Math.min(ny - 1, y0 + dy),
        zi = Math.min(nz - 1, z0 + dz);
      const w = (dx ? fx : 1 - fx) * (dy ? fy : 1 - fy) * (dz ? fz : 1 - fz);
      if (w === 0) continue;
      const i = xi + nx * (yi + ny * zi);
      const ex = v1[i * 3] as number,
        ey = v1[i * 3 + 1] as number,
        ez = v1[i * 3 + 2] as number;
      // Directions are weighted by FA too: an isotropic neighbour's eigenvector is noise and must not steer.
      const f = fa[i] as number;
      const sign =
        ex * (reference[0] as number) + ey * (reference[1] as number) + ez * (reference[2] as number) < 0
          ? -w * f
          : w * f;
      sample[0] = (sample[0] as number) + sign * ex;
      sample[1] = (sample[1] as number) + sign * ey;
      sample[2] = (sample[2] as number) + sign * ez;
      sample[3] = (sample[3] as number) + w * f;
    }
    const norm = Math.hypot(sample[0] as number, sample[1] as number, sample[2] as number);
    if (norm < 1e-9) return false;
    sample[0] = (sample[0] as number) / norm;
    sample[1] = (sample[1] as number) / norm;
    sample[2] = (sample[2] as number) / norm;
    return true;
  };

  const follow = (seed: number, sign: 1 | -1): number[] => {
    const points: number[] = [];
    let x = seed % nx,
      y = Math.floor(seed / nx) % ny,
      z = Math.floor(seed / (nx * ny));
    direction[0] = sign * (v1[seed * 3] as number);
    direction[1] = sign * (v1[seed * 3 + 1] as number);
    direction[2] = sign * (v1[seed * 3 + 2] as number);
    for (let step = 0; step < maxSteps; step++) {
      x += ((direction[0] as number) * stepMm) / voxelSize[0];
      y += ((direction[1] as number) * stepMm) / voxelSize[1];
      z += ((direction[2] as number) * stepMm) / voxelSize[2];
      if (!interpolate(x, y, z, direction)) break;
      if ((sample[3] as number) < options.stopFa) break;
      const cos =
        (sample[0] as number) * (direction[0] as number) +
        (sample[1] as number) * (direction[1] as number) +
        (sample[2] as number) * (direction[2] as number);
      if (cos < cosMax) break;
      points.push(x, y, z);
      direction[0] = sample[0] as number;
      direction[1] = sample[1] as number;
      direction[2] = sample[2] as number;
    }
    return points;
  };

  for (let s = 0; s < seeds.length && streamlines.length < options.maxSeeds; s += stride) {
    const seed = seeds[Math.floor(s)] as number;
    const forward = follow(seed, 1);
    const backward = follow(seed, -1);
    const count = forward.length / 3 + backward.length / 3 + 1;
    if ((count - 1) * stepMm < options.minLengthMm) continue;
    const line = new Float32Array(count * 3);
    let o = 0;
    for (let p = backward.length / 3 - 1; p >= 0; p--) {
      line[o++] = backward[p * 3] as number;
      line[o++] = backward[p * 3 + 1] as number;
      line[o++] = backward[p * 3 + 2] as number;
    }
    line[o++] = seed % nx;
    line[o++] = Math.floor(seed / nx) % ny;
    line[o++] = Math.floor(seed / (nx * ny));
    for (let p = 0; p < forward.length; p++) line[o++] = forward[p] as number;
    streamlines.push(line);
  }
  return streamlines;
}
