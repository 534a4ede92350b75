/**
 * TrackVis .trk (http://trackvis.org/docs/?subsect=fileformat), version 2: a 1000-byte little-endian header, then per
 * streamline an int32 point count and float32 x, y, z per point. Points are in "voxmm": voxel index + 0.5 (the
 * voxel corner is the origin) times the voxel size, along the axes of the image named by voxel_order; vox_to_ras is
 * the NIfTI affine, so readers (nibabel, NiiVue, DSI Studio) place the streamlines in RAS+ mm.
 */
export const TRK_HEADER_SIZE = 1000;

export type TrkHeader = {
  dims: [number, number, number];
  voxelSize: [number, number, number];
  voxToRas: number[][];
  voxelOrder: string;
  count: number;
  version: number;
  headerSize: number;
};

/** Orientation code of an affine (nibabel aff2axcodes for non-degenerate affines): the world axis each voxel axis runs along. */
export function axisCodes(affine: number[][]): string {
  const used = new Set<number>();
  let codes = '';
  for (let c = 0; c < 3; c++) {
    const column = [0, 1, 2].map((r) => (affine[r] as number[])[c] as number);
    const order = [0, 1, 2]
      .filter((r) => !used.has(r))
      .sort((a, b) => Math.abs(column[b] as number) - Math.abs(column[a] as number));
    const axis = order[0] as number;
    used.add(axis);
    const positive = (column[axis] as number) >= 0;
    codes += (['RL', 'AP', 'SI'][axis] as string)[positive ? 0 : 1];
  }
  return codes;
}

/**
 * Writes a .trk from streamlines given in voxel index coordinates (continuous; voxel centres at integers).
 */
export function writeTrk(input: {
  dims: [number, number, number];
  voxelSize: [number, number, number];
  affine: number[][];
  streamlines: Float32Array[];
}): Uint8Array {
  const { dims, voxelSize, affine, streamlines } = input;
  let total = TRK_HEADER_SIZE;
  for (const s of streamlines) total += 4 + s.length * 4;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  'TRACK'.split('').forEach((ch, i) => {
    out[i] = ch.charCodeAt(0);
  });
  dims.forEach((d, i) => view.setInt16(6 + i * 2, d, true));
  voxelSize.forEach((v, i) => view.setFloat32(12 + i * 4, v, true));
  for (let r = 0; r < 4; r++)
    for (let c = 0; c < 4; c++) {
      const value = r === 3 ? (c === 3 ? 1 : 0) : ((affine[r] as number[])[c] as number);
      view.setFloat32(440 + (r * 4 + c) * 4, value, true);
    }
  const order = axisCodes(affine);
  order.split('').forEach((ch, i) => {
    out[948 + i] = ch.charCodeAt(0);
  });
  // image_orientation_patient (956) stays zero: vox_to_ras carries the geometry in version 2.
  view.setInt32(988, streamlines.length, true);
  view.setInt32(992, 2, true);
  view.setInt32(996, TRK_HEADER_SIZE, true);
  let offset = TRK_HEADER_SIZE;
  for (const s of streamlines) {
    const points = s.length / 3;
    view.setInt32(offset, points, true);
    offset += 4;
    for (let p = 0; p < points; p++) {
      for (let a = 0; a < 3; a++) {
        view.setFloat32(offset, ((s[p * 3 + a] as number) + 0.5) * (voxelSize[a] as number), true);
        offset += 4;
      }
    }
  }
  return out;
}

/** Reads a version 2 .trk without scalars or properties; points come back in voxmm as stored. */
export function readTrk(bytes: Uint8Array): { header: TrkHeader; streamlines: Float32Array[] } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = String.fromCharCode(...bytes.subarray(0, 5));
  if (magic !== 'TRACK') throw new Error('Not a TrackVis file');
  const header: TrkHeader = {
    dims: [view.getInt16(6, true), view.getInt16(8, true), view.getInt16(10, true)],
    voxelSize: [view.getFloat32(12, true), view.getFloat32(16, true), view.getFloat32(20, true)],
    voxToRas: [0, 1, 2, 3].map((r) => [0, 1, 2, 3].map((c) => view.getFloat32(440 + (r * 4 + c) * 4, true))),
    voxelOrder: String.fromCharCode(...bytes.subarray(948, 951)),
    count: view.getInt32(988, true),
    version: view.getInt32(992, true),
    headerSize: view.getInt32(996, true),
  };
  const scalars = view.getInt16(36, true);
  const properties = view.getInt16(238, true);
  const streamlines: Float32Array[] = [];
  let offset = header.headerSize;
  while (offset < bytes.byteLength) {
    const points = view.getInt32(offset, true);
    offset += 4;
    const s = new Float32Array(points * 3);
    for (let p = 0; p < points; p++) {
      for (let a = 0; a < 3; a++) s[p * 3 + a] = view.getFloat32(offset + a * 4, true);
      offset += (3 + scalars) * 4;
    }
    offset += properties * 4;
    streamlines.push(s);
  }
  return { header, streamlines };
}
