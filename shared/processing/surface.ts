import { gzip, inflate } from 'pako';
import { extractIsosurface, isClosedMesh, smoothMesh, type Mesh } from './isosurface.ts';
import { applyAffine, readVolume } from './nifti-io.ts';
import { computeMask, downsample, gaussianSmooth, type Dims3 } from './volume-ops.ts';

/** A surface needs a real 3D extent: thinner stacks (localizers, single slabs) are not meshed. */
export const MIN_SURFACE_SLICES = 16;

/** The volume cannot give a surface (too thin, or no body stands out of the background). */
export class SurfaceSourceError extends Error {
  override name = 'SurfaceSourceError';
}

/** Grids are reduced to at most this many voxels along any axis before meshing (about 2 mm for a 1 mm head scan). */
export const SURFACE_MAX_GRID = 128;

export type SurfaceResult = {
  bytes: Uint8Array;
  format: string;
  mimeType: string;
  metadata: { vertices: number; faces: number; isoLevel: number; closed: boolean; bounds: number[][] };
};

/**
 * SURFACE asset of an anatomical volume: the outer surface of the head as a closed triangle mesh in RAS+ mm
 * (the volume's world space, so it overlays the volume in the viewer), written as MZ3 (gzip), which NiiVue loads.
 *
 * Throws SurfaceSourceError for volumes that cannot give one (thinner than MIN_SURFACE_SLICES, or uniform).
 *
 * Steps: first volume only; block-average down to ≤ 128 voxels per axis; the head mask (Otsu threshold of the
 * smoothed intensities, largest connected component, cavities filled); the mask smoothed (σ = 1 voxel) and cut at
 * 0.5 by marching tetrahedra, with the volume's border layer forced outside so the surface closes inside the
 * volume; Taubin smoothing; vertices mapped through the NIfTI affine.
 */
export async function buildSurface(nifti: Uint8Array): Promise<SurfaceResult> {
  const volume = readVolume(nifti);
  const [nx, ny, nz] = volume.dims;
  if (Math.min(nx, ny, nz) < MIN_SURFACE_SLICES) {
    throw new SurfaceSourceError(
      `A surface needs a 3D volume of at least ${MIN_SURFACE_SLICES} voxels along each axis; this one is ${nx}x${ny}x${nz}`,
    );
  }
  const first = volume.data.subarray(0, nx * ny * nz);
  const factor = Math.max(1, Math.ceil(Math.max(nx, ny, nz) / SURFACE_MAX_GRID));
  const reduced = downsample(first, [nx, ny, nz], factor);
  const dims: Dims3 = reduced.dims;
  const { mask, threshold } = computeMask(reduced.data, dims);
  const field = gaussianSmooth(Float32Array.from(mask), dims, [1, 1, 1]);
  const [dx, dy, dz] = dims;
  for (let z = 0; z < dz; z++)
    for (let y = 0; y < dy; y++)
      for (let x = 0; x < dx; x++) {
        if (x === 0 || y === 0 || z === 0 || x === dx - 1 || y === dy - 1 || z === dz - 1)
          field[x + dx * (y + dy * z)] = 0;
      }
  const raw = extractIsosurface(field, dims, 0.5);
  if (raw.indices.length === 0) throw new SurfaceSourceError('No body stands out of the background in this volume');
  const mesh = smoothMesh(raw);
  const world = toWorld(mesh, volume.affine, factor, [nx, ny, nz]);
  const closed = isClosedMesh(world.indices);
  return {
    bytes: writeMz3(world),
    format: 'mz3',
    mimeType: 'application/octet-stream',
    metadata: {
      vertices: world.positions.length / 3,
      faces: world.indices.length / 3,
      isoLevel: Number(threshold.toFixed(3)),
      closed,
      bounds: meshBounds(world.positions),
    },
  };
}

/** Grid index of the reduced volume → original voxel index (block centre) → RAS+ mm. */
function toWorld(mesh: Mesh, affine: number[][], factor: number, dims: Dims3): Mesh {
  const positions = new Float32Array(mesh.positions.length);
  const centre = (factor - 1) / 2;
  for (let i = 0; i < positions.length; i += 3) {
    const x = Math.min(dims[0] - 1, Math.max(0, (mesh.positions[i] as number) * factor + centre));
    const y = Math.min(dims[1] - 1, Math.max(0, (mesh.positions[i + 1] as number) * factor + centre));
    const z = Math.min(dims[2] - 1, Math.max(0, (mesh.positions[i + 2] as number) * factor + centre));
    const p = applyAffine(affine, x, y, z);
    positions[i] = p[0];
    positions[i + 1] = p[1];
    positions[i + 2] = p[2];
  }
  const det = determinant3(affine);
  if (det >= 0) return { positions, indices: mesh.indices };
  // A mirroring affine turns the winding inside out: swap two corners so normals still point outward.
  const indices = Uint32Array.from(mesh.indices);
  for (let f = 0; f < indices.length; f += 3) {
    const t = indices[f + 1] as number;
    indices[f + 1] = indices[f + 2] as number;
    indices[f + 2] = t;
  }
  return { positions, indices };
}

function determinant3(m: number[][]): number {
  const a = (r: number, c: number): number => (m[r] as number[])[c] as number;
  return (
    a(0, 0) * (a(1, 1) * a(2, 2) - a(1, 2) * a(2, 1)) -
    a(0, 1) * (a(1, 0) * a(2, 2) - a(1, 2) * a(2, 0)) +
    a(0, 2) * (a(1, 0) * a(2, 1) - a(1, 1) * a(2, 0))
  );
}

export function meshBounds(positions: Float32Array): number[][] {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i += 3) {
    for (let a = 0; a < 3; a++) {
      const v = positions[i + a] as number;
      if (v < min[a]!) min[a] = v;
      if (v > max[a]!) max[a] = v;
    }
  }
  const round = (v: number): number => Number(v.toFixed(2));
  return [min.map(round), max.map(round)];
}

/** MZ3 (surf-ice / NiiVue): 16-byte header (magic 0x5A4D, attributes: faces|vertices, counts, skip), faces, vertices; gzip. */
export function writeMz3(mesh: Mesh): Uint8Array {
  const faces = mesh.indices.length / 3;
  const vertices = mesh.positions.length / 3;
  const out = new Uint8Array(16 + faces * 12 + vertices * 12);
  const view = new DataView(out.buffer);
  view.setUint16(0, 23117, true);
  view.setUint16(2, 3, true);
  view.setUint32(4, faces, true);
  view.setUint32(8, vertices, true);
  view.setUint32(12, 0, true);
  let o = 16;
  for (let i = 0; i < mesh.indices.length; i++, o += 4) view.setUint32(o, mesh.indices[i] as number, true);
  for (let i = 0; i < mesh.positions.length; i++, o += 4) view.setFloat32(o, mesh.positions[i] as number, true);
  return gzip(out);
}

/** Reads an MZ3 written by writeMz3 (gzip or raw) back into a mesh. */
export function readMz3(bytes: Uint8Array): Mesh {
  const raw = bytes[0] === 0x1f && bytes[1] === 0x8b ? inflate(bytes) : bytes;
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  if (view.getUint16(0, true) !== 23117) throw new Error('Not an MZ3 file');
  const faces = view.getUint32(4, true);
  const vertices = view.getUint32(8, true);
  const skip = view.getUint32(12, true);
  let o = 16 + skip;
  const indices = new Uint32Array(faces * 3);
  for (let i = 0; i < indices.length; i++, o += 4) indices[i] = view.getUint32(o, true);
  const positions = new Float32Array(vertices * 3);
  for (let i = 0; i < positions.length; i++, o += 4) positions[i] = view.getFloat32(o, true);
  return { positions, indices };
}
