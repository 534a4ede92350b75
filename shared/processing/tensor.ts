/**
 * Diffusion tensor fit (Basser 1994): log-linear model log S = log S0 - b gᵀDg, solved per voxel by weighted least
 * squares with the OLS prediction as weights (Chung et al. 2006), the default of dipy's TensorModel, so our FA
 * can be checked against it. Eigen-decomposition of the 3x3 tensor by cyclic Jacobi rotations.
 */
export type GradientTable = { bValues: number[]; directions: [number, number, number][] };

export type TensorFit = {
  /** Fractional anisotropy per voxel (0 outside the mask). */
  fa: Float32Array;
  /** Mean diffusivity per voxel, mm²/s. */
  md: Float32Array;
  /** Principal eigenvector per voxel (x, y, z interleaved) in the gradient frame; zero outside the mask. */
  v1: Float32Array;
  /** Eigenvalues per voxel, descending (3 interleaved), clipped at a small positive diffusivity as dipy does. */
  evals: Float32Array;
  /** Voxels fitted (the mask's size). */
  fitted: number;
};

/** Diffusion weighting below this counts as b=0 (scanners report small b for "b0"). */
export const B0_THRESHOLD = 50;
/** dipy's MIN_POSITIVE_SIGNAL: signal is clipped here before the log. */
const MIN_POSITIVE_SIGNAL = 0.0001;

/** The .bval/.bvec text does not describe the series (wrong shape, not numbers, wrong volume count). */
export class GradientTableError extends Error {
  override name = 'GradientTableError';
}

/** Parses FSL-style .bval/.bvec text (dcm2niix writes these: one row per axis in .bvec). */
export function parseGradientTable(bval: string, bvec: string): GradientTable {
  const bValues = bval.trim().split(/\s+/).filter(Boolean).map(Number);
  const rows = bvec
    .trim()
    .split(/\r?\n/)
    .map((line) => line.trim().split(/\s+/).filter(Boolean).map(Number));
  if (rows.length < 3) throw new GradientTableError('bvec must have three rows (x, y, z)');
  const [xs, ys, zs] = rows as [number[], number[], number[]];
  if (xs.length !== bValues.length || ys.length !== bValues.length || zs.length !== bValues.length) {
    throw new GradientTableError(
      `bval has ${bValues.length} entries but bvec rows have ${xs.length}/${ys.length}/${zs.length}`,
    );
  }
  if (bValues.some((b) => !Number.isFinite(b))) throw new GradientTableError('bval holds a value that is not a number');
  if (rows.slice(0, 3).some((row) => row.some((g) => !Number.isFinite(g))))
    throw new GradientTableError('bvec holds a value that is not a number');
  const directions = bValues.map((_, i): [number, number, number] => [
    xs[i] as number,
    ys[i] as number,
    zs[i] as number,
  ]);
  return { bValues, directions };
}

/** Distinct diffusion-weighted directions (b above the b0 threshold, antipodal pairs counted once). */
export function countDirections(table: GradientTable): number {
  const unique: [number, number, number][] = [];
  table.directions.forEach((g, i) => {
    if ((table.bValues[i] as number) <= B0_THRESHOLD) return;
    const n = Math.hypot(...g);
    if (n < 1e-6) return;
    const u: [number, number, number] = [g[0] / n, g[1] / n, g[2] / n];
    if (!unique.some((v) => Math.abs(v[0] * u[0] + v[1] * u[1] + v[2] * u[2]) > 0.9999)) unique.push(u);
  });
  return unique.length;
}

/** dipy's design matrix: columns Dxx, Dxy, Dyy, Dxz, Dyz, Dzz, log S0 (all negated b-tensor terms, -1 for S0). */
function designMatrix(table: GradientTable): Float64Array {
  const n = table.bValues.length;
  const x = new Float64Array(n * 7);
  for (let i = 0; i < n; i++) {
    const b = table.bValues[i] as number;
    const g = table.directions[i] as [number, number, number];
    const norm = Math.hypot(...g);
    const [gx, gy, gz] = norm > 1e-6 && b > B0_THRESHOLD ? [g[0] / norm, g[1] / norm, g[2] / norm] : [0, 0, 0];
    x.set([-b * gx * gx, -2 * b * gx * gy, -b * gy * gy, -2 * b * gx * gz, -2 * b * gy * gz, -b * gz * gz, -1], i * 7);
  }
  return x;
}

/** Solves the 7x7 system a·x = rhs in place (Gaussian elimination, partial pivoting). Returns false if singular. */
function solve7(a: Float64Array, rhs: Float64Array, out: Float64Array): boolean {
  const n = 7;
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++)
      if (Math.abs(a[r * n + col] as number) > Math.abs(a[pivot * n + col] as number)) pivot = r;
    const p = a[pivot * n + col] as number;
    if (Math.abs(p) < 1e-300) return false;
    if (pivot !== col) {
      for (let c = 0; c < n; c++) {
        const t = a[col * n + c] as number;
        a[col * n + c] = a[pivot * n + c] as number;
        a[pivot * n + c] = t;
      }
      const t = rhs[col] as number;
      rhs[col] = rhs[pivot] as number;
      rhs[pivot] = t;
    }
    for (let r = col + 1; r < n; r++) {
      const f = (a[r * n + col] as number) / (a[col * n + col] as number);
      if (f === 0) continue;
      for (let c = col; c < n; c++) a[r * n + c] = (a[r * n + c] as number) - f * (a[col * n + c] as number);
      rhs[r] = (rhs[r] as number) - f * (rhs[col] as number);
    }
  }
  for (let r = n - 1; r >= 0; r--) {
    let s = rhs[r] as number;
    for (let c = r + 1; c < n; c++) s -= (a[r * n + c] as number) * (out[c] as number);
    out[r] = s / (a[r * n + r] as number);
  }
  return true;
}

/** Moore-Penrose pseudo-inverse of the design matrix (7 x n), via the normal equations (X has full column rank). */
function pseudoInverse(x: Float64Array, n: number): Float64Array {
  const pinv = new Float64Array(7 * n);
  const xtx = new Float64Array(49);
  for (let i = 0; i < n; i++)
    for (let r = 0; r < 7; r++)
      for (let c = 0; c < 7; c++)
        xtx[r * 7 + c] = (xtx[r * 7 + c] as number) + (x[i * 7 + r] as number) * (x[i * 7 + c] as number);
  const column = new Float64Array(7);
  const rhs = new Float64Array(7);
  for (let i = 0; i < n; i++) {
    for (let r = 0; r < 7; r++) rhs[r] = x[i * 7 + r] as number;
    if (!solve7(Float64Array.from(xtx), rhs, column))
      throw new Error('The gradient table cannot support a tensor fit (fewer than 6 non-collinear directions)');
    for (let r = 0; r < 7; r++) pinv[r * n + i] = column[r] as number;
  }
  return pinv;
}

/**
 * Eigen-decomposition of a symmetric 3x3 matrix [xx, xy, yy, xz, yz, zz] by cyclic Jacobi rotations.
 * Writes eigenvalues (descending) into values and the eigenvectors (as columns, vector k at k*3) into vectors.
 */
export function eigenSymmetric3(t: ArrayLike<number>, values: Float64Array, vectors: Float64Array): void {
  const a = [
    [t[0] as number, t[1] as number, t[3] as number],
    [t[1] as number, t[2] as number, t[4] as number],
    [t[3] as number, t[4] as number, t[5] as number],
  ] as number[][];
  const v = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ] as number[][];
  for (let sweep = 0; sweep < 50; sweep++) {
    const off = Math.abs(a[0]![1]!) + Math.abs(a[0]![2]!) + Math.abs(a[1]![2]!);
    const scale = Math.abs(a[0]![0]!) + Math.abs(a[1]![1]!) + Math.abs(a[2]![2]!);
    if (off <= 1e-15 * scale || off === 0) break;
    for (let p = 0; p < 2; p++) {
      for (let q = p + 1; q < 3; q++) {
        const apq = a[p]![q]!;
        if (apq === 0) continue;
        const theta = (a[q]![q]! - a[p]![p]!) / (2 * apq);
        const tan = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(tan * tan + 1);
        const s = tan * c;
        for (let k = 0; k < 3; k++) {
          const akp = a[k]![p]!,
            akq = a[k]![q]!;
          a[k]![p] = c * akp - s * akq;
          a[k]![q] = s * akp + c * akq;
        }
        for (let k = 0; k < 3; k++) {
          const apk = a[p]![k]!,
            aqk = a[q]![k]!;
          a[p]![k] = c * apk - s * aqk;
          a[q]![k] = s * apk + c * aqk;
        }
        for (let k = 0; k < 3; k++) {
          const vkp = v[k]![p]!,
            vkq = v[k]![q]!;
          v[k]![p] = c * vkp - s * vkq;
          v[k]![q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = [0, 1, 2].sort((i, j) => a[j]![j]! - a[i]![i]!);
  order.forEach((k, rank) => {
    values[rank] = a[k]![k]!;
    for (let r = 0; r < 3; r++) vectors[rank * 3 + r] = v[r]![k]!;
  });
}

/** FA from three eigenvalues (Basser & Pierpaoli 1996). */
export function fractionalAnisotropy(l1: number, l2: number, l3: number): number {
  const denominator = l1 * l1 + l2 * l2 + l3 * l3;
  if (denominator <= 0) return 0;
  return Math.sqrt((0.5 * ((l1 - l2) ** 2 + (l2 - l3) ** 2 + (l3 - l1) ** 2)) / denominator);
}

/**
 * Fits the tensor in every voxel of the mask.
 * @param data 4D signal, x fastest, volumes last (as NIfTI stores it)
 * @param voxels number of voxels in one 3D volume
 * @param table b-values and gradient directions (in the frame the eigenvectors should come out in)
 * @param mask 1 where to fit
 */
export function fitTensor(data: Float32Array, voxels: number, table: GradientTable, mask: Uint8Array): TensorFit {
  const n = table.bValues.length;
  if (data.length !== voxels * n)
    throw new Error(`Diffusion data has ${data.length / voxels} volumes but the gradient table has ${n}`);
  const x = designMatrix(table);
  const pinv = pseudoInverse(x, n);
  const minDiffusivity = 1e-6 / Math.max(...table.bValues, 1);
  const fa = new Float32Array(voxels);
  const md = new Float32Array(voxels);
  const v1 = new Float32Array(voxels * 3);
  const evals = new Float32Array(voxels * 3);
  const logS = new Float64Array(n);
  const weights = new Float64Array(n);
  const ols = new Float64Array(7);
  const normal = new Float64Array(49);
  const rhs = new Float64Array(7);
  const beta = new Float64Array(7);
  const values = new Float64Array(3);
  const vectors = new Float64Array(9);
  let fitted = 0;
  for (let v = 0; v < voxels; v++) {
    if (!mask[v]) continue;
    for (let i = 0; i < n; i++) logS[i] = Math.log(Math.max(data[i * voxels + v] as number, MIN_POSITIVE_SIGNAL));
    for (let r = 0; r < 7; r++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += (pinv[r * n + i] as number) * (logS[i] as number);
      ols[r] = s;
    }
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let c = 0; c < 7; c++) s += (x[i * 7 + c] as number) * (ols[c] as number);
      weights[i] = Math.exp(2 * s);
    }
    normal.fill(0);
    rhs.fill(0);
    for (let i = 0; i < n; i++) {
      const w = weights[i] as number;
      const y = logS[i] as number;
      for (let r = 0; r < 7; r++) {
        const wxr = w * (x[i * 7 + r] as number);
        rhs[r] = (rhs[r] as number) + wxr * y;
        for (let c = r; c < 7; c++) normal[r * 7 + c] = (normal[r * 7 + c] as number) + wxr * (x[i * 7 + c] as number);
      }
    }
    for (let r = 0; r < 7; r++) for (let c = 0; c < r; c++) normal[r * 7 + c] = normal[c * 7 + r] as number;
    if (!solve7(normal, rhs, beta)) beta.set(ols);
    eigenSymmetric3(beta, values, vectors);
    const l1 = Math.max(values[0] as number, minDiffusivity);
    const l2 = Math.max(values[1] as number, minDiffusivity);
    const l3 = Math.max(values[2] as number, minDiffusivity);
    fa[v] = fractionalAnisotropy(l1, l2, l3);
    md[v] = (l1 + l2 + l3) / 3;
    evals[v * 3] = l1;
    evals[v * 3 + 1] = l2;
    evals[v * 3 + 2] = l3;
    v1[v * 3] = vectors[0] as number;
    v1[v * 3 + 1] = vectors[1] as number;
    v1[v * 3 + 2] = vectors[2] as number;
    fitted++;
  }
  return { fa, md, v1, evals, fitted };
}
