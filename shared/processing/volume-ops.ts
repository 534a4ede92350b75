/**
 * Small volume operations shared by the mask, surface and tract builders. Volumes are Float32Array/Uint8Array,
 * x fastest, then y, then z.
 */
export type Dims3 = [number, number, number];

/** Upper end of the Otsu histogram: this percentile, so a few very bright voxels (vessels, fat) cannot squeeze it. */
const OTSU_UPPER_PERCENTILE = 0.995;
const OTSU_SAMPLES = 200_000;

/**
 * Otsu's threshold (1979) on a 256-bin histogram of the values where `include` is true (all values if absent), over
 * the range minimum to 99.5th percentile (values above fall in the top bin).
 */
export function otsuThreshold(values: Float32Array, include?: (i: number) => boolean): number {
  let min = Infinity;
  let count = 0;
  for (let i = 0; i < values.length; i++) {
    if (include && !include(i)) continue;
    const v = values[i] as number;
    if (v < min) min = v;
    count++;
  }
  const step = Math.max(1, Math.floor(count / OTSU_SAMPLES));
  const sample: number[] = [];
  for (let i = 0, seen = 0; i < values.length; i++) {
    if (include && !include(i)) continue;
    if (seen++ % step === 0) sample.push(values[i] as number);
  }
  sample.sort((a, b) => a - b);
  const max = sample[Math.min(sample.length - 1, Math.floor(sample.length * OTSU_UPPER_PERCENTILE))] ?? min;
  if (!(max > min)) return min;
  const bins = 256;
  const histogram = new Float64Array(bins);
  const scale = (bins - 1) / (max - min);
  let total = 0;
  for (let i = 0; i < values.length; i++) {
    if (include && !include(i)) continue;
    histogram[Math.min(bins - 1, Math.round(((values[i] as number) - min) * scale))]! += 1;
    total++;
  }
  let sumAll = 0;
  for (let b = 0; b < bins; b++) sumAll += b * (histogram[b] as number);
  let weightBelow = 0;
  let sumBelow = 0;
  let best = 0;
  let bestBin = 0;
  for (let b = 0; b < bins; b++) {
    weightBelow += histogram[b] as number;
    if (weightBelow === 0) continue;
    const weightAbove = total - weightBelow;
    if (weightAbove === 0) break;
    sumBelow += b * (histogram[b] as number);
    const meanBelow = sumBelow / weightBelow;
    const meanAbove = (sumAll - sumBelow) / weightAbove;
    const between = weightBelow * weightAbove * (meanBelow - meanAbove) ** 2;
    if (between > best) {
      best = between;
      bestBin = b;
    }
  }
  return min + (bestBin + 0.5) / scale;
}

/** Calls `visit` with the index of each of voxel `i`'s 6-connected neighbours that lies inside the volume. */
function forEachNeighbour6(i: number, [nx, ny, nz]: Dims3, visit: (j: number) => void): void {
  const x = i % nx;
  const y = Math.floor(i / nx) % ny;
  const z = Math.floor(i / (nx * ny));
  if (x > 0) visit(i - 1);
  if (x < nx - 1) visit(i + 1);
  if (y > 0) visit(i - nx);
  if (y < ny - 1) visit(i + nx);
  if (z > 0) visit(i - nx * ny);
  if (z < nz - 1) visit(i + nx * ny);
}

/** Keeps the largest 6-connected component of a binary mask (in place) and returns its size. */
export function keepLargestComponent(mask: Uint8Array, dims: Dims3): number {
  const labels = new Int32Array(mask.length);
  const stack = new Int32Array(mask.length);
  let bestLabel = 0;
  let bestSize = 0;
  let label = 0;
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || labels[start]) continue;
    label++;
    let size = 0;
    let top = 0;
    stack[top++] = start;
    labels[start] = label;
    while (top > 0) {
      const i = stack[--top] as number;
      size++;
      forEachNeighbour6(i, dims, (j) => {
        if (mask[j] && !labels[j]) {
          labels[j] = label;
          stack[top++] = j;
        }
      });
    }
    if (size > bestSize) {
      bestSize = size;
      bestLabel = label;
    }
  }
  for (let i = 0; i < mask.length; i++) mask[i] = labels[i] === bestLabel && bestLabel > 0 ? 1 : 0;
  return bestSize;
}

/** Fills every background region not 6-connected to the volume's border (in place), so the mask has no cavities. */
export function fillHoles(mask: Uint8Array, dims: Dims3): void {
  const [nx, ny, nz] = dims;
  const outside = new Uint8Array(mask.length);
  const stack = new Int32Array(mask.length);
  let top = 0;
  const seed = (i: number): void => {
    if (!mask[i] && !outside[i]) {
      outside[i] = 1;
      stack[top++] = i;
    }
  };
  for (let z = 0; z < nz; z++)
    for (let y = 0; y < ny; y++)
      for (let x = 0; x < nx; x++) {
        if (x === 0 || y === 0 || z === 0 || x === nx - 1 || y === ny - 1 || z === nz - 1) seed(x + nx * (y + ny * z));
      }
  while (top > 0) {
    forEachNeighbour6(stack[--top] as number, dims, seed);
  }
  for (let i = 0; i < mask.length; i++) if (!outside[i]) mask[i] = 1;
}

/** Separable Gaussian smoothing with sigma given in voxels per axis (kernel cut at 3 sigma, edges clamped). */
export function gaussianSmooth(values: Float32Array, dims: Dims3, sigma: [number, number, number]): Float32Array {
  let current = values;
  const strides = [1, dims[0], dims[0] * dims[1]];
  for (let axis = 0; axis < 3; axis++) {
    const s = sigma[axis] as number;
    if (s <= 0) continue;
    const radius = Math.max(1, Math.ceil(3 * s));
    const kernel = new Float32Array(2 * radius + 1);
    let sum = 0;
    for (let k = -radius; k <= radius; k++) {
      kernel[k + radius] = Math.exp(-(k * k) / (2 * s * s));
      sum += kernel[k + radius] as number;
    }
    for (let k = 0; k < kernel.length; k++) kernel[k] = (kernel[k] as number) / sum;
    const next = new Float32Array(current.length);
    const n = dims[axis] as number;
    const stride = strides[axis] as number;
    for (let i = 0; i < current.length; i++) {
      const position = Math.floor(i / stride) % n;
      let acc = 0;
      for (let k = -radius; k <= radius; k++) {
        const p = Math.min(n - 1, Math.max(0, position + k));
        acc += (kernel[k + radius] as number) * (current[i + (p - position) * stride] as number);
      }
      next[i] = acc;
    }
    current = next;
  }
  return current;
}

/** Averages blocks of factor³ voxels (the last partial block averages what it has). */
export function downsample(values: Float32Array, dims: Dims3, factor: number): { data: Float32Array; dims: Dims3 } {
  if (factor <= 1) return { data: values, dims };
  const [nx, ny, nz] = dims;
  const out: Dims3 = [Math.ceil(nx / factor), Math.ceil(ny / factor), Math.ceil(nz / factor)];
  const sum = new Float32Array(out[0] * out[1] * out[2]);
  const count = new Uint16Array(sum.length);
  for (let z = 0; z < nz; z++) {
    const oz = Math.floor(z / factor);
    for (let y = 0; y < ny; y++) {
      const oy = Math.floor(y / factor);
      const row = nx * (y + ny * z);
      const orow = out[0] * (oy + out[1] * oz);
      for (let x = 0; x < nx; x++) {
        const o = orow + Math.floor(x / factor);
        sum[o] = (sum[o] as number) + (values[row + x] as number);
        count[o] = (count[o] as number) + 1;
      }
    }
  }
  for (let i = 0; i < sum.length; i++) sum[i] = (sum[i] as number) / ((count[i] as number) || 1);
  return { data: sum, dims: out };
}

/**
 * Brain (head) mask from a b=0 or anatomical volume: Otsu threshold of the smoothed intensities, the largest
 * 6-connected component, then its cavities filled (ventricles and CSF are dark in b0/T1 but belong inside).
 * Simple and robust on MR: background air is dark and one connected body stands out.
 */
export function computeMask(
  volume: Float32Array,
  dims: Dims3,
): { mask: Uint8Array; threshold: number; voxels: number } {
  const smoothed = gaussianSmooth(volume, dims, [1, 1, 1]);
  const threshold = otsuThreshold(smoothed);
  const mask = new Uint8Array(volume.length);
  for (let i = 0; i < mask.length; i++) mask[i] = (smoothed[i] as number) > threshold ? 1 : 0;
  keepLargestComponent(mask, dims);
  fillHoles(mask, dims);
  let voxels = 0;
  for (let i = 0; i < mask.length; i++) voxels += mask[i] as number;
  return { mask, threshold, voxels };
}
