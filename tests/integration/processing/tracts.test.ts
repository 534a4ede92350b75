import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readVolume, writeVolume } from '#shared/processing/nifti-io.ts';
import { eigenSymmetric3, fitTensor, parseGradientTable } from '#shared/processing/tensor.ts';
import {
  buildTracts,
  GradientTableError,
  InsufficientDirectionsError,
  meanB0,
  signalToNoise,
  type TractsResult,
} from '#shared/processing/tracts.ts';
import { readTrk, TRK_HEADER_SIZE } from '#shared/processing/trk.ts';
import { computeMask } from '#shared/processing/volume-ops.ts';
import { convertWithDcm2niix, DTI_DICOM, PYTHON, requireDipy, type ConvertedSeries } from './fixtures.ts';

const DIPY_COMPARISON = String.raw`
import json, sys
import numpy as np, nibabel as nb
from dipy.core.gradients import gradient_table
from dipy.io.gradients import read_bvals_bvecs
from dipy.reconst.dti import TensorModel, color_fa
nii, bval, bvec, mask_path, fa_path, cfa_path, trk_path = sys.argv[1:8]
img = nb.load(nii)
data = img.get_fdata(dtype=np.float32)
bvals, bvecs = read_bvals_bvecs(bval, bvec)
mask = nb.load(mask_path).get_fdata() > 0.5
fit = TensorModel(gradient_table(bvals, bvecs)).fit(data, mask=mask)
ref_fa = np.nan_to_num(fit.fa)
ours = nb.load(fa_path)
fa = ours.get_fdata()
ref_rgb = color_fa(ref_fa, fit.evecs)
rgb = np.asarray(nb.load(cfa_path).dataobj)
rgb = np.stack([rgb['R'], rgb['G'], rgb['B']], axis=-1).astype(float) / 255
# Compare colour where the principal direction is well defined.
strong = mask & (ref_fa > 0.3)
color_corr = [float(np.corrcoef(ref_rgb[..., c][strong], rgb[..., c][strong])[0, 1]) for c in range(3)]
trk = nb.streamlines.load(trk_path)
points = np.concatenate(list(trk.streamlines))
ijk = nb.affines.apply_affine(np.linalg.inv(img.affine), points)
print(json.dumps({
  'faCorrelation': float(np.corrcoef(ref_fa[mask], fa[mask])[0, 1]),
  'faMaxAbsDiff': float(np.abs(ref_fa[mask] - fa[mask]).max()),
  'meanMdE3': float(np.mean(fit.md[mask]) * 1000),
  'affineMatches': bool(np.allclose(ours.affine, img.affine, atol=1e-3)),
  'colorCorrelation': color_corr,
  'trkStreamlines': len(trk.streamlines),
  'trkVoxelOrder': trk.header['voxel_order'].decode() if isinstance(trk.header['voxel_order'], bytes) else str(trk.header['voxel_order']),
  'imageAxcodes': ''.join(nb.aff2axcodes(img.affine)),
  'ijkMin': ijk.min(0).tolist(), 'ijkMax': ijk.max(0).tolist(),
}))
`;

describe('tensor maths', () => {
  it('recovers a known tensor from noise-free synthetic signal', () => {
    // Prepare: D with eigenvalues 1.7e-3, 0.3e-3, 0.2e-3 along x, y, z; S0 = 1000; six directions + b0
    const table = parseGradientTable(
      '0 1000 1000 1000 1000 1000 1000',
      ['0 1 0 0 0.7071 0.7071 0', '0 0 1 0 0.7071 0 0.7071', '0 0 0 1 0 0.7071 0.7071'].join('\n'),
    );
    const d = [1.7e-3, 0, 0.3e-3, 0, 0, 0.2e-3]; // xx, xy, yy, xz, yz, zz
    const data = new Float32Array(table.bValues.length);
    table.bValues.forEach((b, i) => {
      const [x, y, z] = table.directions[i]!;
      const n = Math.hypot(x, y, z) || 1;
      const [gx, gy, gz] = [x / n, y / n, z / n];
      const q =
        d[0]! * gx * gx +
        2 * d[1]! * gx * gy +
        d[2]! * gy * gy +
        2 * d[3]! * gx * gz +
        2 * d[4]! * gy * gz +
        d[5]! * gz * gz;
      data[i] = 1000 * Math.exp(-b * q);
    });
    // Act
    const fit = fitTensor(data, 1, table, Uint8Array.of(1));
    // Assess
    expect(fit.evals[0]).toBeCloseTo(1.7e-3, 6);
    expect(fit.evals[1]).toBeCloseTo(0.3e-3, 6);
    expect(fit.evals[2]).toBeCloseTo(0.2e-3, 6);
    expect(Math.abs(fit.v1[0]!)).toBeCloseTo(1, 5);
    const l = [1.7, 0.3, 0.2];
    const expectedFa = Math.sqrt(
      (0.5 * ((l[0]! - l[1]!) ** 2 + (l[1]! - l[2]!) ** 2 + (l[2]! - l[0]!) ** 2)) /
        (l[0]! ** 2 + l[1]! ** 2 + l[2]! ** 2),
    );
    expect(fit.fa[0]).toBeCloseTo(expectedFa, 5);
  });

  it('decomposes a rotated symmetric matrix into orthonormal eigenvectors', () => {
    // Prepare: A = [[2,1,0],[1,2,0],[0,0,5]] has eigenvalues 5, 3, 1
    const values = new Float64Array(3);
    const vectors = new Float64Array(9);
    // Act
    eigenSymmetric3([2, 1, 2, 0, 0, 5], values, vectors);
    // Assess
    expect([...values].map((v) => Number(v.toFixed(9)))).toEqual([5, 3, 1]);
    expect(Math.abs(vectors[2]!)).toBeCloseTo(1, 9);
    expect(Math.abs(vectors[3]! * vectors[6]! + vectors[4]! * vectors[7]! + vectors[5]! * vectors[8]!)).toBeLessThan(
      1e-9,
    );
  });

  it('measures b0 SNR as brain mean over Rician-corrected background σ', () => {
    // Prepare: brain 1000 in the first half, background alternating 10 ± 2 (σ = 2) in the second
    const b0 = Float32Array.from({ length: 200 }, (_, i) => (i < 100 ? 1000 : i % 2 ? 12 : 8));
    const mask = Uint8Array.from({ length: 200 }, (_, i) => (i < 100 ? 1 : 0));
    // Act
    const snr = signalToNoise(b0, mask, 500);
    // Assess
    expect(snr).toBeCloseTo(1000 / (2 / 0.655), 6);
  });

  it.each([
    ['a bvec with two rows', '0 1000', '0 1\n0 0'],
    ['bvec rows shorter than bval', '0 1000 1000', '0 1\n0 0\n0 0'],
    ['a bval that is not a number', '0 abc', '0 1\n0 0\n0 0'],
  ])('rejects %s', (_, bval, bvec) => {
    expect(() => parseGradientTable(bval, bvec)).toThrow(GradientTableError);
  });

  it('refuses a series with fewer than six diffusion directions', async () => {
    // Prepare: a 2x2x2 volume with b0 + 3 directions
    const nifti = writeVolume({
      dims: [2, 2, 2, 4],
      voxelSize: [2, 2, 2],
      affine: [
        [2, 0, 0, 0],
        [0, 2, 0, 0],
        [0, 0, 2, 0],
        [0, 0, 0, 1],
      ],
      datatype: 'float32',
      data: new Float32Array(32).fill(100),
    });
    // Act
    const build = buildTracts({ nifti, bval: '0 1000 1000 1000', bvec: '0 1 0 0\n0 0 1 0\n0 0 0 1' });
    // Assess
    await expect(build).rejects.toBeInstanceOf(InsufficientDirectionsError);
  });
});

describe('buildTracts on the Philips DTI series (b=0/2000, 15 directions)', () => {
  let series: ConvertedSeries;
  let result: TractsResult;

  beforeAll(async () => {
    series = convertWithDcm2niix(DTI_DICOM);
    result = await buildTracts({ nifti: series.nifti, bval: series.bval!, bvec: series.bvec! });
  });
  afterAll(() => {
    if (series) rmSync(series.dir, { recursive: true, force: true });
  });

  it('reports the gradient scheme and a streamline count', () => {
    expect(result.metadata.directions).toBe(15);
    expect(result.metadata.bValues).toEqual([0, 2000]);
    expect(result.metadata.streamlines).toBeGreaterThan(1000);
    expect(result.metadata.meanFa).toBeGreaterThan(0.1);
    expect(result.metadata.meanFa).toBeLessThan(0.5);
  });

  it('writes a valid TrackVis header with streamlines inside the volume', () => {
    // Act
    const { header, streamlines } = readTrk(result.trk);
    const volume = readVolume(series.nifti);
    // Assess
    expect(String.fromCharCode(...result.trk.subarray(0, 6))).toBe('TRACK\0');
    expect(header).toMatchObject({
      dims: [80, 80, 40],
      version: 2,
      headerSize: TRK_HEADER_SIZE,
      count: result.metadata.streamlines,
      voxelOrder: 'LAS',
    });
    header.voxelSize.forEach((v, i) => expect(v).toBeCloseTo(volume.voxelSize[i]!, 4));
    header.voxToRas
      .slice(0, 3)
      .forEach((row, r) => row.forEach((v, c) => expect(v).toBeCloseTo(volume.affine[r]![c]!, 3)));
    expect(streamlines).toHaveLength(header.count);
    const min = [Infinity, Infinity, Infinity];
    const max = [-Infinity, -Infinity, -Infinity];
    let points = 0;
    for (const line of streamlines) {
      points += line.length / 3;
      for (let p = 0; p < line.length; p += 3) {
        for (let a = 0; a < 3; a++) {
          min[a] = Math.min(min[a]!, line[p + a]!);
          max[a] = Math.max(max[a]!, line[p + a]!);
        }
      }
    }
    expect(points).toBeGreaterThan(streamlines.length * 10);
    // voxmm: the volume spans [0, dim * voxel size] along each axis
    min.forEach((v) => expect(v).toBeGreaterThanOrEqual(0));
    max.forEach((v, a) => expect(v).toBeLessThanOrEqual(header.dims[a]! * header.voxelSize[a]!));
  });

  it('agrees with dipy: FA correlation ≥ 0.99 inside the brain, same colour FA, nibabel reads the .trk inside the volume', () => {
    // Prepare: the same mask for both fits, written where dipy can read it
    requireDipy();
    const volume = readVolume(series.nifti);
    const [nx, ny, nz] = volume.dims;
    const table = parseGradientTable(series.bval!, series.bvec!);
    const { mask } = computeMask(meanB0(volume.data, nx * ny * nz, table.bValues), [nx, ny, nz]);
    const geometry = {
      dims: [nx, ny, nz] as [number, number, number],
      voxelSize: volume.voxelSize,
      affine: volume.affine,
    };
    const paths = {
      mask: join(series.dir, 'mask.nii.gz'),
      fa: join(series.dir, 'fa.nii.gz'),
      cfa: join(series.dir, 'cfa.nii.gz'),
      trk: join(series.dir, 'tracts.trk'),
    };
    writeFileSync(paths.mask, writeVolume({ ...geometry, datatype: 'float32', data: Float32Array.from(mask) }));
    writeFileSync(paths.fa, result.fa);
    writeFileSync(paths.cfa, result.colorFa);
    writeFileSync(paths.trk, result.trk);
    // Act
    const output = execFileSync(
      PYTHON,
      [
        '-c',
        DIPY_COMPARISON,
        series.niftiPath,
        series.bvalPath!,
        series.bvecPath!,
        paths.mask,
        paths.fa,
        paths.cfa,
        paths.trk,
      ],
      { encoding: 'utf8' },
    );
    const reference = JSON.parse(output) as Record<string, unknown>;
    // Assess
    expect(reference.faCorrelation).toBeGreaterThanOrEqual(0.99);
    expect(reference.faMaxAbsDiff).toBeLessThan(0.01);
    expect(reference.affineMatches).toBe(true);
    expect(result.metadata.meanMd).toBeCloseTo(reference.meanMdE3 as number, 3);
    for (const c of reference.colorCorrelation as number[]) expect(c).toBeGreaterThanOrEqual(0.99);
    expect(reference.trkStreamlines).toBe(result.metadata.streamlines);
    expect(reference.trkVoxelOrder).toBe(reference.imageAxcodes);
    (reference.ijkMin as number[]).forEach((v) => expect(v).toBeGreaterThanOrEqual(-0.5));
    (reference.ijkMax as number[]).forEach((v, a) => expect(v).toBeLessThanOrEqual([nx, ny, nz][a]! - 0.5));
  });
});
