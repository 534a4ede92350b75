import { readFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { convertToNifti } from '#shared/dicom/convert.ts';
import { renderThumbnail } from '#shared/dicom/thumbnail.ts';
import { dataPath } from './data.ts';

/** A NIfTI-1 (.nii) int16 volume with an sform; enough of the header for the reader (nifti1.h layout). */
function makeNifti(
  dims: [number, number, number],
  affine: number[][],
  fill: (i: number, j: number, k: number) => number,
): Uint8Array {
  const [nx, ny, nz] = dims;
  const bytes = new Uint8Array(352 + nx * ny * nz * 2);
  const view = new DataView(bytes.buffer);
  view.setInt32(0, 348, true);
  [3, nx, ny, nz, 1, 1, 1, 1].forEach((value, index) => view.setInt16(40 + index * 2, value, true));
  view.setInt16(70, 4, true); // datatype int16
  view.setInt16(72, 16, true); // bitpix
  const voxelSize = [0, 1, 2].map((c) => Math.hypot(affine[0]![c]!, affine[1]![c]!, affine[2]![c]!));
  [1, ...voxelSize, 1, 1, 1, 1].forEach((value, index) => view.setFloat32(76 + index * 4, value, true));
  view.setFloat32(108, 352, true); // vox_offset
  view.setFloat32(112, 1, true); // scl_slope
  view.setInt16(254, 2, true); // sform_code aligned
  affine.slice(0, 3).forEach((row, r) => row.forEach((value, c) => view.setFloat32(280 + r * 16 + c * 4, value, true)));
  bytes.set([0x6e, 0x2b, 0x31, 0x00], 344); // "n+1\0"
  for (let k = 0; k < nz; k += 1)
    for (let j = 0; j < ny; j += 1)
      for (let i = 0; i < nx; i += 1) {
        view.setInt16(352 + 2 * (i + nx * (j + ny * k)), fill(i, j, k), true);
      }
  return bytes;
}

function meanLevel(png: PNG, x0: number, y0: number, x1: number, y1: number): number {
  let sum = 0;
  let count = 0;
  for (let y = y0; y < y1; y += 1)
    for (let x = x0; x < x1; x += 1) {
      sum += png.data[(y * png.width + x) * 4]!;
      count += 1;
    }
  return sum / count;
}

describe('renderThumbnail', () => {
  let nifti: Uint8Array;
  beforeAll(async () => {
    const bytes = new Uint8Array(readFileSync(dataPath('transfer-syntaxes', 'dicom', '1.dcm')));
    const outputs = await convertToNifti([{ name: '1.dcm', bytes }]);
    nifti = outputs[0]!.nifti;
  });

  it('renders a converted series as a valid, non-blank grayscale PNG of the requested size', () => {
    // Act
    const bytes = renderThumbnail(nifti, { size: 128 });

    // Assess
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const png = PNG.sync.read(Buffer.from(bytes));
    expect([png.width, png.height]).toEqual([128, 128]);
    const levels = new Set<number>();
    let bright = 0;
    for (let index = 0; index < png.data.length; index += 4) {
      levels.add(png.data[index]!);
      if (png.data[index]! > 64) bright += 1;
    }
    expect(levels.size).toBeGreaterThan(100);
    expect(bright / (128 * 128)).toBeGreaterThan(0.15);
    expect(bright / (128 * 128)).toBeLessThan(0.9);
  });

  it('shows patient right on the left and anterior at the top (radiological), whatever the voxel order', () => {
    // Prepare: a LAS-stored volume (x flipped), bright block in the patient's right-anterior quadrant
    const affine = [
      [-1, 0, 0, 31],
      [0, 1, 0, -31],
      [0, 0, 1, -2],
      [0, 0, 0, 1],
    ];
    const volume = makeNifti([32, 32, 5], affine, (i, j) => {
      const x = -i + 31; // world x (positive = patient right)
      const y = j - 31 + 0; // world y
      return x > 16 && y > -15 ? 1000 : 100;
    });

    // Act
    const png = PNG.sync.read(Buffer.from(renderThumbnail(volume, { size: 64 })));

    // Assess
    expect(meanLevel(png, 2, 2, 28, 28)).toBeGreaterThan(200);
    expect(meanLevel(png, 36, 36, 62, 62)).toBeLessThan(40);
    expect(meanLevel(png, 36, 2, 62, 28)).toBeLessThan(40);
  });

  it('keeps a thin-slab volume visible by slicing across its single-voxel axis', () => {
    // Prepare: one sagittal plane (x has one voxel)
    const volume = makeNifti(
      [1, 40, 20],
      [
        [1, 0, 0, 0],
        [0, 1, 0, 0],
        [0, 0, 2, 0],
        [0, 0, 0, 1],
      ],
      (_i, j, k) => (j + k) * 10,
    );

    // Act
    const png = PNG.sync.read(Buffer.from(renderThumbnail(volume, { size: 80 })));

    // Assess: 40 mm x 40 mm plane fills the square; superior-anterior corner bright, inferior-posterior dark
    expect(meanLevel(png, 2, 2, 10, 10)).toBeGreaterThan(meanLevel(png, 70, 70, 78, 78));
    expect(meanLevel(png, 0, 0, 80, 80)).toBeGreaterThan(20);
  });
});
