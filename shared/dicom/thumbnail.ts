import { PNG } from 'pngjs';
import { NIFTI_DATATYPE, readNifti, voxelsPerVolume, type NiftiVolume } from './nifti.ts';

export type ThumbnailOptions = {
  /** Edge of the square PNG in pixels (default 256); the slice keeps its physical aspect ratio, letterboxed in black. */
  size?: number;
  /** Window percentiles (default 1st–99th), computed over the non-background voxels of the first volume. */
  lowPercentile?: number;
  highPercentile?: number;
};

const DEFAULT_SIZE = 256;
/** Enough samples for stable percentiles at any volume size, and a fast sort. */
const MAX_WINDOW_SAMPLES = 200_000;

type SlicePlan = {
  sliceAxis: number;
  sliceIndex: number;
  /** Voxel axis shown left → right, and whether the voxel index runs backwards on screen. */
  horizontal: { axis: number; reversed: boolean };
  vertical: { axis: number; reversed: boolean };
};

/**
 * Renders a representative slice of a NIfTI volume (.nii or .nii.gz) as an 8-bit grayscale PNG: the middle axial slice
 * of the first volume (for diffusion, the b=0 image dcm2niix puts first), or the middle slice across the thinnest axis
 * when the volume is a single plane. Shown in radiological convention (patient right on the viewer's left, anterior or
 * superior up) from the affine, with a robust 1st–99th percentile window so one bright vessel cannot wash out the brain.
 * Node only (pngjs).
 */
export function renderThumbnail(niftiBytes: Uint8Array, options: ThumbnailOptions = {}): Uint8Array {
  const volume = readNifti(niftiBytes);
  const size = Math.max(8, Math.round(options.size ?? DEFAULT_SIZE));
  const values = firstVolumeGray(volume);
  const [low, high] = robustWindow(values, options.lowPercentile ?? 1, options.highPercentile ?? 99);
  const plan = planSlice(volume);
  const pixels = renderSlice(volume, values, plan, size, low, high);
  const png = new PNG({ width: size, height: size, colorType: 0, inputColorType: 6, bitDepth: 8 });
  png.data = pixels;
  const encoded = PNG.sync.write(png, { colorType: 0, inputColorType: 6 });
  return new Uint8Array(encoded.buffer, encoded.byteOffset, encoded.byteLength);
}

/** The first 3D volume as numbers (RGB folded to luminance), in voxel order. */
function firstVolumeGray(volume: NiftiVolume): Float32Array {
  const count = voxelsPerVolume(volume);
  const gray = new Float32Array(count);
  if (volume.datatype === NIFTI_DATATYPE.RGB24) {
    // NIfTI RGB24 is interleaved: three bytes per voxel.
    for (let index = 0; index < count; index += 1) {
      const base = index * 3;
      gray[index] = 0.299 * volume.data[base]! + 0.587 * volume.data[base + 1]! + 0.114 * volume.data[base + 2]!;
    }
    return gray;
  }
  const sign = volume.slope < 0 ? -1 : 1;
  for (let index = 0; index < count; index += 1) gray[index] = sign * (volume.data[index] ?? 0);
  return gray;
}

function robustWindow(values: Float32Array, lowPercentile: number, highPercentile: number): [number, number] {
  const stride = Math.max(1, Math.floor(values.length / MAX_WINDOW_SAMPLES));
  const samples: number[] = [];
  let nonZero = 0;
  for (let index = 0; index < values.length; index += stride) {
    const value = values[index]!;
    if (!Number.isFinite(value)) continue;
    samples.push(value);
    if (value !== 0) nonZero += 1;
  }
  // Air outside the head is mostly exact zeros after scanner masking: leave it out when there is tissue to window on.
  const pool = nonZero >= samples.length * 0.05 ? samples.filter((value) => value !== 0) : samples;
  if (pool.length === 0) return [0, 1];
  pool.sort((a, b) => a - b);
  const at = (percentile: number): number =>
    pool[Math.min(pool.length - 1, Math.max(0, Math.round((percentile / 100) * (pool.length - 1))))]!;
  const low = at(lowPercentile);
  const high = at(highPercentile);
  return high > low
    ? [low, high]
    : [pool[0]!, pool[pool.length - 1]! > pool[0]! ? pool[pool.length - 1]! : pool[0]! + 1];
}

/** Picks the slice axis and screen orientation from the affine (RAS+ world: x right, y anterior, z superior). */
function planSlice(volume: NiftiVolume): SlicePlan {
  const size = [0, 1, 2].map((axis) => Math.max(1, volume.dims[axis + 1] ?? 1));
  const dominantWorld = [0, 1, 2].map((axis) => {
    const column = [0, 1, 2].map((world) => Math.abs(volume.affine[world]?.[axis] ?? 0));
    return column.indexOf(Math.max(...column));
  });
  const isPermutation = new Set(dominantWorld).size === 3;
  const worldOf = (axis: number): number => (isPermutation ? dominantWorld[axis]! : axis);
  let sliceAxis = [0, 1, 2].find((axis) => worldOf(axis) === 2)!;
  const flat = [0, 1, 2].filter((axis) => size[axis] === 1);
  if (flat.length > 0 && !flat.includes(sliceAxis)) sliceAxis = flat[0]!;
  const [first, second] = [0, 1, 2].filter((axis) => axis !== sliceAxis) as [number, number];
  // The in-plane axis nearer to superior (z), else anterior (y), goes vertical.
  const [horizontalAxis, verticalAxis] = worldOf(first) > worldOf(second) ? [second, first] : [first, second];
  const pointsPositive = (axis: number): boolean => (volume.affine[worldOf(axis)]?.[axis] ?? 1) >= 0;
  return {
    sliceAxis,
    sliceIndex: Math.floor((size[sliceAxis]! - 1) / 2),
    // Radiological: patient right (+x) and anterior (+y) on the left of the screen; anterior/superior at the top.
    horizontal: { axis: horizontalAxis, reversed: pointsPositive(horizontalAxis) },
    vertical: { axis: verticalAxis, reversed: pointsPositive(verticalAxis) },
  };
}

function renderSlice(
  volume: NiftiVolume,
  values: Float32Array,
  plan: SlicePlan,
  size: number,
  low: number,
  high: number,
): Buffer {
  const dims = [0, 1, 2].map((axis) => Math.max(1, volume.dims[axis + 1] ?? 1));
  const strides = [1, dims[0]!, dims[0]! * dims[1]!];
  const spacing = [0, 1, 2].map((axis) => Math.abs(volume.pixDims[axis + 1] ?? 1) || 1);
  const width = dims[plan.horizontal.axis]!;
  const height = dims[plan.vertical.axis]!;
  const widthMm = width * spacing[plan.horizontal.axis]!;
  const heightMm = height * spacing[plan.vertical.axis]!;
  const scale = size / Math.max(widthMm, heightMm);
  const drawWidth = Math.max(1, Math.round(widthMm * scale));
  const drawHeight = Math.max(1, Math.round(heightMm * scale));
  const offsetX = Math.floor((size - drawWidth) / 2);
  const offsetY = Math.floor((size - drawHeight) / 2);
  const base = plan.sliceIndex * strides[plan.sliceAxis]!;
  const hStride = strides[plan.horizontal.axis]!;
  const vStride = strides[plan.vertical.axis]!;
  const sample = (h: number, v: number): number => values[base + h * hStride + v * vStride]!;
  const range = high - low;
  const pixels = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      const out = (y * size + x) * 4;
      pixels[out + 3] = 255;
      const u = x - offsetX;
      const w = y - offsetY;
      if (u < 0 || w < 0 || u >= drawWidth || w >= drawHeight) continue;
      // Pixel centre → continuous voxel coordinate, then bilinear interpolation.
      let hPos = ((u + 0.5) / drawWidth) * width - 0.5;
      let vPos = ((w + 0.5) / drawHeight) * height - 0.5;
      if (plan.horizontal.reversed) hPos = width - 1 - hPos;
      if (plan.vertical.reversed) vPos = height - 1 - vPos;
      hPos = Math.min(width - 1, Math.max(0, hPos));
      vPos = Math.min(height - 1, Math.max(0, vPos));
      const h0 = Math.floor(hPos);
      const v0 = Math.floor(vPos);
      const h1 = Math.min(width - 1, h0 + 1);
      const v1 = Math.min(height - 1, v0 + 1);
      const fh = hPos - h0;
      const fv = vPos - v0;
      const value =
        (sample(h0, v0) * (1 - fh) + sample(h1, v0) * fh) * (1 - fv) +
        (sample(h0, v1) * (1 - fh) + sample(h1, v1) * fh) * fv;
      const level = Math.round(Math.min(1, Math.max(0, (value - low) / range)) * 255);
      pixels[out] = level;
      pixels[out + 1] = level;
      pixels[out + 2] = level;
    }
  }
  return pixels;
}
