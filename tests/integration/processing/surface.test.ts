import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractIsosurface, isClosedMesh } from '#shared/processing/isosurface.ts';
import { applyAffine, readVolume, writeVolume } from '#shared/processing/nifti-io.ts';
import { buildSurface, readMz3, SurfaceSourceError, type SurfaceResult } from '#shared/processing/surface.ts';
import { convertWithDcm2niix, T1_DICOM, type ConvertedSeries } from './fixtures.ts';

/** Each undirected edge's use count, and how many directed edges repeat (a consistently wound closed mesh has none). */
function edgeCensus(indices: Uint32Array): { uses: Map<string, number>; repeatedDirected: number } {
  const uses = new Map<string, number>();
  const directed = new Set<string>();
  let repeatedDirected = 0;
  for (let f = 0; f < indices.length; f += 3) {
    for (let e = 0; e < 3; e++) {
      const a = indices[f + e]!,
        b = indices[f + ((e + 1) % 3)]!;
      const key = a < b ? `${a}:${b}` : `${b}:${a}`;
      uses.set(key, (uses.get(key) ?? 0) + 1);
      if (directed.has(`${a}>${b}`)) repeatedDirected++;
      directed.add(`${a}>${b}`);
    }
  }
  return { uses, repeatedDirected };
}

/** Signed volume by the divergence theorem: positive when every triangle's normal points outward. */
function signedVolume(positions: Float32Array, indices: Uint32Array): number {
  let volume = 0;
  for (let f = 0; f < indices.length; f += 3) {
    const [a, b, c] = [indices[f]!, indices[f + 1]!, indices[f + 2]!].map((k) => [
      positions[k * 3]!,
      positions[k * 3 + 1]!,
      positions[k * 3 + 2]!,
    ]) as [number[], number[], number[]];
    volume +=
      (a[0]! * (b[1]! * c[2]! - b[2]! * c[1]!) -
        a[1]! * (b[0]! * c[2]! - b[2]! * c[0]!) +
        a[2]! * (b[0]! * c[1]! - b[1]! * c[0]!)) /
      6;
  }
  return volume;
}

function volumeBounds(nifti: Uint8Array): { min: number[]; max: number[] } {
  const v = readVolume(nifti);
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const i of [0, v.dims[0] - 1])
    for (const j of [0, v.dims[1] - 1])
      for (const k of [0, v.dims[2] - 1]) {
        applyAffine(v.affine, i, j, k).forEach((c, a) => {
          min[a] = Math.min(min[a]!, c);
          max[a] = Math.max(max[a]!, c);
        });
      }
  return { min, max };
}

describe('marching tetrahedra', () => {
  it('gives a closed, consistently wound sphere with the right radius', () => {
    // Prepare: signed distance-like field of a sphere of radius 8 in a 24³ grid
    const n = 24;
    const field = new Float32Array(n * n * n);
    for (let z = 0; z < n; z++)
      for (let y = 0; y < n; y++)
        for (let x = 0; x < n; x++) {
          field[x + n * (y + n * z)] = 8 - Math.hypot(x - 11.5, y - 11.5, z - 11.5);
        }
    // Act
    const mesh = extractIsosurface(field, [n, n, n], 0);
    // Assess
    const census = edgeCensus(mesh.indices);
    expect([...census.uses.values()].every((c) => c === 2)).toBe(true);
    expect(census.repeatedDirected).toBe(0);
    expect(isClosedMesh(mesh.indices)).toBe(true);
    for (let i = 0; i < mesh.positions.length; i += 3) {
      const r = Math.hypot(mesh.positions[i]! - 11.5, mesh.positions[i + 1]! - 11.5, mesh.positions[i + 2]! - 11.5);
      expect(Math.abs(r - 8)).toBeLessThan(0.1);
    }
    // Outward winding: the signed volume (divergence theorem) is positive and close to 4/3 π r³
    let volume = 0;
    for (let f = 0; f < mesh.indices.length; f += 3) {
      const [a, b, c] = [mesh.indices[f]!, mesh.indices[f + 1]!, mesh.indices[f + 2]!].map((k) => [
        mesh.positions[k * 3]! - 11.5,
        mesh.positions[k * 3 + 1]! - 11.5,
        mesh.positions[k * 3 + 2]! - 11.5,
      ]) as [number[], number[], number[]];
      volume +=
        (a[0]! * (b[1]! * c[2]! - b[2]! * c[1]!) -
          a[1]! * (b[0]! * c[2]! - b[2]! * c[0]!) +
          a[2]! * (b[0]! * c[1]! - b[1]! * c[0]!)) /
        6;
    }
    expect(volume / ((4 / 3) * Math.PI * 8 ** 3)).toBeGreaterThan(0.97);
    expect(volume / ((4 / 3) * Math.PI * 8 ** 3)).toBeLessThan(1.01);
  });

  it('reports an open mesh as not closed', () => {
    expect(isClosedMesh(Uint32Array.of(0, 1, 2))).toBe(false);
  });

  it('refuses volumes too thin or too uniform for a surface', async () => {
    // Prepare
    const affine = [
      [1, 0, 0, 0],
      [0, 1, 0, 0],
      [0, 0, 1, 0],
      [0, 0, 0, 1],
    ];
    const slab = writeVolume({
      dims: [64, 64, 3],
      voxelSize: [1, 1, 1],
      affine,
      datatype: 'float32',
      data: new Float32Array(64 * 64 * 3).fill(7),
    });
    const uniform = writeVolume({
      dims: [20, 20, 20],
      voxelSize: [1, 1, 1],
      affine,
      datatype: 'float32',
      data: new Float32Array(8000).fill(7),
    });
    // Act, Assess
    await expect(buildSurface(slab)).rejects.toBeInstanceOf(SurfaceSourceError);
    await expect(buildSurface(uniform)).rejects.toThrow('No body stands out of the background in this volume');
  });

  it.each([
    [
      'a neurological (RAS) affine',
      [
        [2, 0, 0, -30],
        [0, 2, 0, -30],
        [0, 0, 2, -30],
        [0, 0, 0, 1],
      ],
    ],
    [
      'a radiological (LAS) affine',
      [
        [-2, 0, 0, 30],
        [0, 2, 0, -30],
        [0, 0, 2, -30],
        [0, 0, 0, 1],
      ],
    ],
  ])('keeps normals outward in world space with %s', async (_, affine) => {
    // Prepare: a bright ball of radius 10 voxels (20 mm) in a 32³ volume
    const n = 32;
    const data = Float32Array.from({ length: n ** 3 }, (_, i) =>
      Math.hypot((i % n) - 15.5, (Math.floor(i / n) % n) - 15.5, Math.floor(i / (n * n)) - 15.5) <= 10 ? 800 : 20,
    );
    const nifti = writeVolume({ dims: [n, n, n], voxelSize: [2, 2, 2], affine, datatype: 'float32', data });
    // Act
    const surface = await buildSurface(nifti);
    const mesh = readMz3(surface.bytes);
    // Assess: about 4/3 π (20 mm)³, positive
    const volume = signedVolume(mesh.positions, mesh.indices);
    expect(volume).toBeGreaterThan(0.8 * (4 / 3) * Math.PI * 20 ** 3);
    expect(volume).toBeLessThan(1.2 * (4 / 3) * Math.PI * 20 ** 3);
  });

  it('closes a body that touches the volume border', async () => {
    // Prepare: a bright block filling a whole 20³ volume (the border layer is forced outside)
    const nifti = writeVolume({
      dims: [20, 20, 20],
      voxelSize: [1, 1, 1],
      affine: [
        [-1, 0, 0, 5],
        [0, 1, 0, -5],
        [0, 0, 1, 0],
        [0, 0, 0, 1],
      ],
      datatype: 'float32',
      data: Float32Array.from({ length: 20 ** 3 }, (_, i) => (i % 3 === 0 ? 900 : 1000)),
    });
    // Act
    const surface = await buildSurface(nifti);
    // Assess
    expect(surface.metadata.closed).toBe(true);
    expect(isClosedMesh(readMz3(surface.bytes).indices)).toBe(true);
  });
});

describe('buildSurface on the GE T1 (196x256x256)', () => {
  let series: ConvertedSeries;
  let surface: SurfaceResult;

  beforeAll(async () => {
    series = convertWithDcm2niix(T1_DICOM);
    surface = await buildSurface(series.nifti);
  });
  afterAll(() => {
    if (series) rmSync(series.dir, { recursive: true, force: true });
  });

  it('writes an MZ3 mesh whose every edge is shared by exactly two faces', () => {
    // Act
    const mesh = readMz3(surface.bytes);
    // Assess
    expect(surface.format).toBe('mz3');
    expect(mesh.indices.length / 3).toBe(surface.metadata.faces);
    expect(mesh.positions.length / 3).toBe(surface.metadata.vertices);
    expect(surface.metadata.faces).toBeGreaterThan(10_000);
    const census = edgeCensus(mesh.indices);
    expect([...census.uses.values()].filter((c) => c !== 2)).toEqual([]);
    expect(census.repeatedDirected).toBe(0);
    expect(surface.metadata.closed).toBe(true);
    expect(signedVolume(mesh.positions, mesh.indices)).toBeGreaterThan(0);
  });

  it('lies inside the volume bounds in world (RAS mm) coordinates', () => {
    // Prepare
    const { min, max } = volumeBounds(series.nifti);
    const mesh = readMz3(surface.bytes);
    // Assess
    for (let a = 0; a < 3; a++) {
      let lo = Infinity,
        hi = -Infinity;
      for (let i = a; i < mesh.positions.length; i += 3) {
        lo = Math.min(lo, mesh.positions[i]!);
        hi = Math.max(hi, mesh.positions[i]!);
      }
      expect(lo).toBeGreaterThanOrEqual(min[a]! - 1e-3);
      expect(hi).toBeLessThanOrEqual(max[a]! + 1e-3);
      expect(surface.metadata.bounds[0]![a]).toBeCloseTo(lo, 1);
      expect(surface.metadata.bounds[1]![a]).toBeCloseTo(hi, 1);
      // A head spans well over 100 mm along every axis
      expect(hi - lo).toBeGreaterThan(100);
    }
  });
});
