/**
 * Generated NIfTI-1 volumes for the viewer's tests and bench: a head-like phantom (scalp, skull, grey and white matter,
 * ventricles as nested ellipsoids) stored as int16, the type scanners write, gzipped. `contrast` sets the tissue
 * intensities (a T1 has bright white matter and dark fluid, a T2 the reverse); 4D volumes repeat the phantom with a
 * per-frame attenuation, as diffusion weightings do. Every volume is centred on the scanner origin with the voxel size
 * given, so volumes of different matrices overlap in millimetres (what linked crosshairs rely on).
 */
import { gzipSync } from 'node:zlib';

export type PhantomContrast = 'T1' | 'T2' | 'DWI';

export type PhantomOptions = {
  dims: [number, number, number] | [number, number, number, number];
  /** Voxel size in mm (x, y, z). */
  voxelMm: [number, number, number];
  contrast: PhantomContrast;
  /** gzip level: 1 for large volumes (fast to write), 6 by default. */
  level?: number;
};

const TISSUE: Record<PhantomContrast, { scalp: number; skull: number; grey: number; white: number; fluid: number }> = {
  T1: { scalp: 500, skull: 80, grey: 600, white: 900, fluid: 150 },
  T2: { scalp: 400, skull: 60, grey: 800, white: 550, fluid: 1500 },
  DWI: { scalp: 150, skull: 30, grey: 500, white: 420, fluid: 900 },
};

/** The NIfTI-1 header (348 bytes) and the 4 bytes of extension flags, for int16 voxels with an sform centred on 0. */
function header(dims: number[], voxelMm: [number, number, number]): Buffer {
  const out = Buffer.alloc(352);
  out.writeInt32LE(348, 0);
  const dim = [dims.length, ...dims, 1, 1, 1, 1].slice(0, 8);
  dim.forEach((d, i) => out.writeInt16LE(d, 40 + i * 2));
  out.writeInt16LE(4, 70); // datatype: DT_INT16
  out.writeInt16LE(16, 72); // bitpix
  [1, ...voxelMm, 1, 1, 1, 1].forEach((p, i) => out.writeFloatLE(p, 76 + i * 4));
  out.writeFloatLE(352, 108); // vox_offset
  out.writeFloatLE(1, 112); // scl_slope
  out.writeInt8(2 | 8, 123); // xyzt_units: mm, s
  out.writeInt16LE(1, 252); // qform_code: scanner
  out.writeInt16LE(1, 254); // sform_code: scanner
  const offsets = [0, 1, 2].map((axis) => -((dims[axis]! - 1) / 2) * voxelMm[axis]!);
  [0, 1, 2].forEach((row) => {
    const values = [0, 1, 2].map((column) => (row === column ? voxelMm[row]! : 0));
    [...values, offsets[row]!].forEach((v, column) => out.writeFloatLE(v, 280 + row * 16 + column * 4));
  });
  out.writeFloatLE(offsets[0]!, 268); // qoffset_x
  out.writeFloatLE(offsets[1]!, 272);
  out.writeFloatLE(offsets[2]!, 276);
  out.write('n+1\0', 344, 'latin1');
  return out;
}

/** The phantom as a gzipped .nii.gz. */
export function phantomNifti(options: PhantomOptions): Uint8Array {
  const [nx, ny, nz] = options.dims;
  const nt = options.dims[3] ?? 1;
  const [sx, sy, sz] = options.voxelMm;
  const t = TISSUE[options.contrast];
  // Head radii in mm: about 90 x 110 x 100, clipped to the field of view.
  const fov = [nx * sx, ny * sy, nz * sz];
  const head = [Math.min(90, fov[0]! * 0.45), Math.min(110, fov[1]! * 0.45), Math.min(100, fov[2]! * 0.45)];
  const frame = new Int16Array(nx * ny * nz);
  let i = 0;
  for (let z = 0; z < nz; z++) {
    const mz = (z - (nz - 1) / 2) * sz;
    for (let y = 0; y < ny; y++) {
      const my = (y - (ny - 1) / 2) * sy;
      for (let x = 0; x < nx; x++, i++) {
        const mx = (x - (nx - 1) / 2) * sx;
        const r = Math.sqrt((mx / head[0]!) ** 2 + (my / head[1]!) ** 2 + (mz / head[2]!) ** 2);
        const ventricle = Math.sqrt(
          (mx / (head[0]! * 0.12)) ** 2 + (my / (head[1]! * 0.3)) ** 2 + (mz / (head[2]! * 0.15)) ** 2,
        );
        let value = 0;
        if (r < 1) value = t.scalp;
        if (r < 0.93) value = t.skull;
        if (r < 0.87) value = t.grey;
        if (r < 0.72) value = t.white;
        if (ventricle < 1) value = t.fluid;
        // A fixed texture (no randomness), so runs and tests see the same voxels.
        frame[i] = value === 0 ? 0 : value + ((x * 7 + y * 13 + z * 29) % 23);
      }
    }
  }
  const voxels = new Int16Array(frame.length * nt);
  for (let f = 0; f < nt; f++) {
    const attenuation = f === 0 ? 1 : 0.35 + (0.3 * ((f * 37) % 11)) / 10;
    for (let v = 0; v < frame.length; v++) voxels[f * frame.length + v] = Math.round(frame[v]! * attenuation);
  }
  const data = Buffer.from(voxels.buffer, voxels.byteOffset, voxels.byteLength);
  return gzipSync(Buffer.concat([header(options.dims, options.voxelMm), data]), { level: options.level ?? 6 });
}

/**
 * The smallest volume a viewer opens: 4x4x4 uint8 (NIfTI-1 header of 348 bytes, 4 bytes of extension flags, then the
 * voxels, a ramp), gzipped. For browser tests that need a volume on a page, not its contents.
 */
export function tinyNifti(): Uint8Array {
  const header = Buffer.alloc(352);
  header.writeInt32LE(348, 0);
  [3, 4, 4, 4, 1, 1, 1, 1].forEach((d, i) => header.writeInt16LE(d, 40 + i * 2));
  header.writeInt16LE(2, 70);
  header.writeInt16LE(8, 72);
  [1, 1, 1, 1, 1, 1, 1, 1].forEach((p, i) => header.writeFloatLE(p, 76 + i * 4));
  header.writeFloatLE(352, 108);
  header.writeFloatLE(1, 112);
  header.write('n+1\0', 344, 'latin1');
  const voxels = Buffer.from(Array.from({ length: 64 }, (_, i) => (i * 4) % 256));
  return gzipSync(Buffer.concat([header, voxels]));
}
