import { NVMeshLoaders } from '@niivue/niivue';
import { inflate } from 'pako';
import { beforeAll, describe, expect, it } from 'vitest';
import { readNifti } from '#shared/dicom/nifti.ts';
import { applyAffine, readVolume, writeVolume } from '#shared/processing/nifti-io.ts';
import { buildSurface } from '#shared/processing/surface.ts';
import { buildTracts, type TractsResult } from '#shared/processing/tracts.ts';
import { axisCodes, readTrk } from '#shared/processing/trk.ts';

/**
 * A synthetic diffusion phantom with a known answer: an ellipsoidal "brain" of isotropic tissue crossed by a tube of
 * fibres running obliquely in the voxel x-y plane (30° from x), stored with a positive-determinant (RAS-like, rotated)
 * affine so the FSL bvec x flip matters: getting it wrong would turn the fibres to -30°. Gradients follow dcm2niix's
 * FSL convention.
 */
const DIMS: [number, number, number] = [24, 20, 16];
const VOXEL: [number, number, number] = [2, 2, 2.5];
const ANGLE = (20 * Math.PI) / 180;
const AFFINE = [
  [2 * Math.cos(ANGLE), -2 * Math.sin(ANGLE), 0, -20],
  [2 * Math.sin(ANGLE), 2 * Math.cos(ANGLE), 0, -15],
  [0, 0, 2.5, -10],
  [0, 0, 0, 1],
];

function fibonacciDirections(count: number): [number, number, number][] {
  return Array.from({ length: count }, (_, i) => {
    const z = 1 - (2 * (i + 0.5)) / count;
    const r = Math.sqrt(1 - z * z);
    const phi = i * Math.PI * (3 - Math.sqrt(5));
    return [r * Math.cos(phi), r * Math.sin(phi), z];
  });
}

const FIBRE_ANGLE = (30 * Math.PI) / 180;
const FIBRE: [number, number, number] = [Math.cos(FIBRE_ANGLE), Math.sin(FIBRE_ANGLE), 0];
const CENTRE: [number, number, number] = [11.5, 9.5, 7.5];

/** Distance (mm) from the fibre axis through the centre. */
function tubeDistance(x: number, y: number, z: number): number {
  const d = [(x - CENTRE[0]) * VOXEL[0], (y - CENTRE[1]) * VOXEL[1], (z - CENTRE[2]) * VOXEL[2]];
  const along = d[0]! * FIBRE[0] + d[1]! * FIBRE[1] + d[2]! * FIBRE[2];
  return Math.hypot(d[0]! - along * FIBRE[0], d[1]! - along * FIBRE[1], d[2]! - along * FIBRE[2]);
}

function isTube(x: number, y: number, z: number): boolean {
  return x >= 2 && x <= DIMS[0] - 3 && y >= 1 && y <= DIMS[1] - 2 && tubeDistance(x, y, z) <= 5;
}

function isBrain(x: number, y: number, z: number): boolean {
  return ((x - CENTRE[0]) / 11) ** 2 + ((y - CENTRE[1]) / 8.5) ** 2 + ((z - CENTRE[2]) / 6) ** 2 <= 1;
}

function phantom(): { nifti: Uint8Array; bval: string; bvec: string } {
  const directions = fibonacciDirections(30);
  const bValues = [0, ...directions.map(() => 1000)];
  const gradients: [number, number, number][] = [[0, 0, 0], ...directions];
  const [nx, ny, nz] = DIMS;
  const voxels = nx * ny * nz;
  const data = new Float32Array(voxels * bValues.length);
  for (let z = 0; z < nz; z++)
    for (let y = 0; y < ny; y++)
      for (let x = 0; x < nx; x++) {
        const v = x + nx * (y + ny * z);
        const inside = isBrain(x, y, z) || isTube(x, y, z);
        bValues.forEach((b, t) => {
          const [gx, gy, gz] = gradients[t]!;
          // Tube: D = 0.2e-3 I + 1.5e-3 u uᵀ (eigenvalues 1.7, 0.2, 0.2 e-3) along the fibre u; elsewhere isotropic 0.8e-3 mm²/s
          const along = gx * FIBRE[0] + gy * FIBRE[1] + gz * FIBRE[2];
          const adc = isTube(x, y, z) ? 0.2e-3 + 1.5e-3 * along * along : 0.8e-3;
          data[t * voxels + v] = inside ? 1000 * Math.exp(-b * adc) : 5;
        });
      }
  // FSL bvecs for a positive-determinant image: the voxel-frame x component is negated.
  const bvec = [0, 1, 2].map((a) => gradients.map((g) => (a === 0 ? -g[0] : g[a]!).toFixed(6)).join(' ')).join('\n');
  return {
    nifti: writeVolume({
      dims: [nx, ny, nz, bValues.length],
      voxelSize: VOXEL,
      affine: AFFINE,
      datatype: 'float32',
      data,
    }),
    bval: bValues.join(' '),
    bvec,
  };
}

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

describe('buildTracts on a synthetic fibre phantom (known direction, rotated RAS-like affine)', () => {
  let input: ReturnType<typeof phantom>;
  let result: TractsResult;

  beforeAll(async () => {
    input = phantom();
    result = await buildTracts(input, { minLengthMm: 10 });
  });

  it('finds high FA in the tube, low FA in the isotropic tissue, and colour FA in the fibre direction', () => {
    // Act
    const fa = readVolume(result.fa);
    const colour = readNifti(result.colorFa);
    const [nx, ny] = DIMS;
    const tube = 12 + nx * (10 + ny * 7);
    const tissue = 12 + nx * (2 + ny * 7);
    // Assess
    expect(isTube(12, 10, 7)).toBe(true);
    expect(fa.data[tube]).toBeGreaterThan(0.75);
    expect(fa.data[tissue]).toBeLessThan(0.05);
    expect(colour.datatype).toBe(128);
    const [r, g, b] = [colour.data[tube * 3]!, colour.data[tube * 3 + 1]!, colour.data[tube * 3 + 2]!];
    expect(r / 255).toBeCloseTo(fa.data[tube]! * FIBRE[0], 1);
    expect(g / 255).toBeCloseTo(fa.data[tube]! * FIBRE[1], 1);
    expect(b).toBeLessThan(5);
    expect(axisCodes(AFFINE)).toBe('RAS');
  });

  it('tracks streamlines along the fibre and inside the tube only', () => {
    // Act
    const { header, streamlines } = readTrk(result.trk);
    // Assess
    expect(header.voxelOrder).toBe('RAS');
    expect(streamlines.length).toBeGreaterThan(20);
    let worst = 0;
    const cosines: number[] = [];
    for (const line of streamlines) {
      const points = line.length / 3;
      // voxmm → mm along the voxel axes: the end-to-end direction is the fibre's
      const d = [0, 1, 2].map((a) => line[(points - 1) * 3 + a]! - line[a]!);
      const cos = Math.abs(d[0]! * FIBRE[0] + d[1]! * FIBRE[1] + d[2]! * FIBRE[2]) / Math.hypot(...d);
      cosines.push(cos);
      for (let p = 0; p < points; p++) {
        worst = Math.max(
          worst,
          tubeDistance(
            line[p * 3]! / VOXEL[0] - 0.5,
            line[p * 3 + 1]! / VOXEL[1] - 0.5,
            line[p * 3 + 2]! / VOXEL[2] - 0.5,
          ),
        );
      }
    }
    // A wrong gradient frame (e.g. a missed bvec x flip) would run them at -30°: cos 60° = 0.5
    expect(Math.min(...cosines)).toBeGreaterThan(0.9);
    expect(cosines.sort((a, b) => a - b)[Math.floor(cosines.length / 2)]).toBeGreaterThan(0.99);
    expect(worst).toBeLessThanOrEqual(5.5);
  });

  it("is placed in world space by NiiVue's own .trk loader, along the affine's x axis", async () => {
    // Act
    const trk = await NVMeshLoaders.readTRK(toArrayBuffer(result.trk));
    const { streamlines } = readTrk(result.trk);
    // Assess: NiiVue's first point equals our voxel coordinate mapped through the affine
    const first = streamlines[0]!;
    const expected = applyAffine(
      AFFINE,
      first[0]! / VOXEL[0] - 0.5,
      first[1]! / VOXEL[1] - 0.5,
      first[2]! / VOXEL[2] - 0.5,
    );
    expected.forEach((c, a) => expect(trk.pts[a]!).toBeCloseTo(c, 3));
    expect(trk.offsetPt0.length).toBe(streamlines.length + 1);
    // In world space the fibre is turned by the affine's 20° rotation: it runs at 50° in the x-y plane
    const last = (trk.offsetPt0[1]! - 1) * 3;
    const direction = [
      trk.pts[last]! - trk.pts[0]!,
      trk.pts[last + 1]! - trk.pts[1]!,
      trk.pts[last + 2]! - trk.pts[2]!,
    ];
    const length = Math.hypot(...direction);
    expect(
      Math.abs(
        (direction[0]! / length) * Math.cos(ANGLE + FIBRE_ANGLE) +
          (direction[1]! / length) * Math.sin(ANGLE + FIBRE_ANGLE),
      ),
    ).toBeGreaterThan(0.99);
  });

  it("writes a surface NiiVue's MZ3 loader reads", async () => {
    // Prepare: the b0 volume of the phantom as an anatomical image
    const volume = readVolume(input.nifti);
    const voxels = DIMS[0] * DIMS[1] * DIMS[2];
    const b0 = writeVolume({
      dims: DIMS,
      voxelSize: VOXEL,
      affine: AFFINE,
      datatype: 'float32',
      data: volume.data.slice(0, voxels),
    });
    // Act
    const surface = await buildSurface(b0);
    const loaded = await NVMeshLoaders.readMZ3(toArrayBuffer(surface.bytes));
    if (!('positions' in loaded) || !loaded.positions || !loaded.indices)
      throw new Error('NiiVue read the MZ3 as scalars, not a mesh');
    const mesh = { positions: loaded.positions, indices: loaded.indices };
    // Assess
    expect(surface.metadata.closed).toBe(true);
    expect(mesh.positions.length / 3).toBe(surface.metadata.vertices);
    expect(mesh.indices.length / 3).toBe(surface.metadata.faces);
    expect(inflate(surface.bytes).length).toBe(16 + surface.metadata.faces * 12 + surface.metadata.vertices * 12);
  });
});
