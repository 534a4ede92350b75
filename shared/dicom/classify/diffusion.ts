/** Diffusion encodings below this b-value (s/mm²) are treated as b=0 references (scanners write b=5 or b=10 for them). */
export const B0_THRESHOLD = 50;

/**
 * Counts distinct gradient directions among diffusion-weighted volumes. A vector and its opposite encode the same
 * direction (the tensor is symmetric); zero vectors (b=0 or the scanner's isotropic/trace image) are not directions.
 */
export function countDirections(vectors: readonly (readonly number[])[], bValues?: readonly number[]): number {
  const seen = new Set<string>();
  vectors.forEach((vector, index) => {
    if (bValues && (bValues[index] ?? 0) <= B0_THRESHOLD) return;
    const [x = 0, y = 0, z = 0] = vector;
    const norm = Math.hypot(x, y, z);
    if (!Number.isFinite(norm) || norm < 1e-3) return;
    let unit = [x / norm, y / norm, z / norm];
    const firstNonZero = unit.find((value) => Math.abs(value) > 1e-3) ?? 1;
    if (firstNonZero < 0) unit = unit.map((value) => -value);
    seen.add(unit.map((value) => (Math.round(value * 100) / 100 + 0).toFixed(2)).join(','));
  });
  return seen.size;
}

/** Parses FSL-style .bval text (whitespace-separated numbers). */
export function parseBval(text: string): number[] {
  return text.trim().split(/\s+/).filter(Boolean).map(Number).filter(Number.isFinite);
}

/** Parses FSL-style .bvec text (three rows: x, y, z per volume) into one vector per volume. */
export function parseBvec(text: string): number[][] {
  const rows = text
    .trim()
    .split(/\r?\n/)
    .map((line) => line.trim().split(/\s+/).filter(Boolean).map(Number));
  if (rows.length < 3) return [];
  const [xs = [], ys = [], zs = []] = rows;
  return xs.map((x, i) => [x, ys[i] ?? 0, zs[i] ?? 0]);
}
