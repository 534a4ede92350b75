/**
 * Isosurface extraction by marching tetrahedra over the Kuhn (Freudenthal) triangulation of the voxel grid: every
 * cube is cut into six tetrahedra along its main diagonal, the same way in every cube, so neighbouring cubes share
 * their face triangulations and the surface has no cracks and no ambiguous cases (unlike classic marching cubes'
 * table, which can leave holes). A field that is below the level on the volume's border gives a closed 2-manifold:
 * every edge is shared by exactly two triangles.
 */
export type Mesh = {
  /** x, y, z per vertex. */
  positions: Float32Array;
  /** Three vertex indices per triangle, counter-clockwise seen from outside. */
  indices: Uint32Array;
};

/** The 6 tetrahedra: corner paths 0 → a → a+b → 7 for each permutation of the axis bits (1, 2, 4). */
const TETRAHEDRA: readonly [number, number, number, number][] = [
  [0, 1, 3, 7],
  [0, 1, 5, 7],
  [0, 2, 3, 7],
  [0, 2, 6, 7],
  [0, 4, 5, 7],
  [0, 4, 6, 7],
];

/**
 * Extracts the surface `field = level` (inside: field > level) in voxel index coordinates.
 */
export function extractIsosurface(field: Float32Array, dims: [number, number, number], level: number): Mesh {
  const [nx, ny, nz] = dims;
  const corner = (c: number): number => (c & 1) + ((c >> 1) & 1) * nx + ((c >> 2) & 1) * nx * ny;
  const cornerOffsets = Array.from({ length: 8 }, (_, c) => corner(c));
  // A vertex lives on a grid edge p → p + d with d in {0,1}³ (Kuhn edges run that way): key = p * 7 + (code(d) - 1).
  const vertexOf = new Int32Array(nx * ny * nz * 7).fill(-1);
  const positions: number[] = [];
  const indices: number[] = [];
  const values = new Float64Array(4);
  const grid = new Int32Array(4);
  const codes = new Int32Array(4);

  const edgeVertex = (a: number, b: number): number => {
    const [lo, hi] = (codes[a] as number) < (codes[b] as number) ? [a, b] : [b, a];
    const key = (grid[lo] as number) * 7 + ((codes[hi] as number) - (codes[lo] as number)) - 1;
    const existing = vertexOf[key] as number;
    if (existing >= 0) return existing;
    const fa = values[lo] as number,
      fb = values[hi] as number;
    const t = Math.min(0.999, Math.max(0.001, (level - fa) / (fb - fa)));
    const p = grid[lo] as number,
      q = grid[hi] as number;
    const px = p % nx,
      py = Math.floor(p / nx) % ny,
      pz = Math.floor(p / (nx * ny));
    const qx = q % nx,
      qy = Math.floor(q / nx) % ny,
      qz = Math.floor(q / (nx * ny));
    const id = positions.length / 3;
    positions.push(px + t * (qx - px), py + t * (qy - py), pz + t * (qz - pz));
    vertexOf[key] = id;
    return id;
  };

  const position = (i: number): [number, number, number] => [
    positions[i * 3] as number,
    positions[i * 3 + 1] as number,
    positions[i * 3 + 2] as number,
  ];
  const gridPoint = (g: number): [number, number, number] => [
    g % nx,
    Math.floor(g / nx) % ny,
    Math.floor(g / (nx * ny)),
  ];
  /** Adds a triangle oriented so its normal points from the inside corners towards the outside ones. */
  const emit = (a: number, b: number, c: number, inside: number[], outside: number[]): void => {
    const pa = position(a),
      pb = position(b),
      pc = position(c);
    const u = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]];
    const v = [pc[0] - pa[0], pc[1] - pa[1], pc[2] - pa[2]];
    const n = [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!];
    const centroid = (list: number[]): number[] => {
      const sum = [0, 0, 0];
      for (const k of list) {
        const g = gridPoint(grid[k] as number);
        sum[0]! += g[0];
        sum[1]! += g[1];
        sum[2]! += g[2];
      }
      return sum.map((s) => s / list.length);
    };
    const ci = centroid(inside),
      co = centroid(outside);
    const outward = n[0]! * (co[0]! - ci[0]!) + n[1]! * (co[1]! - ci[1]!) + n[2]! * (co[2]! - ci[2]!);
    if (outward >= 0) indices.push(a, b, c);
    else indices.push(a, c, b);
  };

  for (let z = 0; z < nz - 1; z++) {
    for (let y = 0; y < ny - 1; y++) {
      for (let x = 0; x < nx - 1; x++) {
        const base = x + nx * (y + ny * z);
        let any = 0;
        for (let c = 0; c < 8; c++) any |= (field[base + (cornerOffsets[c] as number)] as number) > level ? 1 : 2;
        if (any !== 3) continue;
        for (const tet of TETRAHEDRA) {
          const inside: number[] = [];
          const outside: number[] = [];
          for (let k = 0; k < 4; k++) {
            const c = tet[k] as number;
            codes[k] = c;
            grid[k] = base + (cornerOffsets[c] as number);
            values[k] = field[grid[k] as number] as number;
            ((values[k] as number) > level ? inside : outside).push(k);
          }
          if (inside.length === 0 || outside.length === 0) continue;
          if (inside.length === 1 || outside.length === 1) {
            const apex = (inside.length === 1 ? inside[0] : outside[0]) as number;
            const others = [0, 1, 2, 3].filter((k) => k !== apex);
            emit(
              edgeVertex(apex, others[0]!),
              edgeVertex(apex, others[1]!),
              edgeVertex(apex, others[2]!),
              inside,
              outside,
            );
          } else {
            const [i0, i1] = inside as [number, number];
            const [o0, o1] = outside as [number, number];
            const a = edgeVertex(i0, o0),
              b = edgeVertex(i0, o1),
              c = edgeVertex(i1, o1),
              d = edgeVertex(i1, o0);
            emit(a, b, c, inside, outside);
            emit(a, c, d, inside, outside);
          }
        }
      }
    }
  }
  return { positions: Float32Array.from(positions), indices: Uint32Array.from(indices) };
}

/** Edge-use census: a mesh is closed (watertight, 2-manifold at edges) when every edge belongs to exactly two triangles. */
export function isClosedMesh(indices: Uint32Array): boolean {
  const counts = new Map<number, number>();
  let vertices = 1;
  for (let i = 0; i < indices.length; i++) vertices = Math.max(vertices, (indices[i] as number) + 1);
  for (let f = 0; f < indices.length; f += 3) {
    for (let e = 0; e < 3; e++) {
      const a = indices[f + e] as number,
        b = indices[f + ((e + 1) % 3)] as number;
      const key = Math.min(a, b) * vertices + Math.max(a, b);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  if (counts.size === 0) return false;
  for (const count of counts.values()) if (count !== 2) return false;
  return true;
}

/**
 * Taubin λ|μ smoothing (Taubin 1995): removes voxel staircase without the shrinkage of plain Laplacian smoothing.
 * Moves vertices only, so the mesh stays closed.
 */
export function smoothMesh(mesh: Mesh, iterations = 10, lambda = 0.5, mu = -0.53): Mesh {
  const n = mesh.positions.length / 3;
  const neighbourSets: Set<number>[] = Array.from({ length: n }, () => new Set<number>());
  for (let f = 0; f < mesh.indices.length; f += 3) {
    const a = mesh.indices[f] as number,
      b = mesh.indices[f + 1] as number,
      c = mesh.indices[f + 2] as number;
    neighbourSets[a]!.add(b).add(c);
    neighbourSets[b]!.add(a).add(c);
    neighbourSets[c]!.add(a).add(b);
  }
  const start = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) start[i + 1] = (start[i] as number) + neighbourSets[i]!.size;
  const neighbours = new Uint32Array(start[n] as number);
  neighbourSets.forEach((set, i) => {
    let o = start[i] as number;
    for (const j of set) neighbours[o++] = j;
  });
  let current = Float32Array.from(mesh.positions);
  let next = new Float32Array(current.length);
  for (let it = 0; it < iterations * 2; it++) {
    const factor = it % 2 === 0 ? lambda : mu;
    for (let i = 0; i < n; i++) {
      const from = start[i] as number,
        to = start[i + 1] as number;
      for (let a = 0; a < 3; a++) {
        const own = current[i * 3 + a] as number;
        if (to === from) {
          next[i * 3 + a] = own;
          continue;
        }
        let sum = 0;
        for (let k = from; k < to; k++) sum += current[(neighbours[k] as number) * 3 + a] as number;
        next[i * 3 + a] = own + factor * (sum / (to - from) - own);
      }
    }
    [current, next] = [next, current];
  }
  return { positions: current, indices: mesh.indices };
}
