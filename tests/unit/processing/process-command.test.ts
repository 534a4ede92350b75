import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDicom } from '#shared/dicom/parse.ts';
import { isClosedMesh } from '#shared/processing/isosurface.ts';
import { readMz3 } from '#shared/processing/surface.ts';
import { readTrk } from '#shared/processing/trk.ts';
import { DTI_DICOM, T1_DICOM } from './fixtures.ts';

const run = promisify(execFile);
const IWS = resolve(process.cwd(), 'cli/iws.mjs');

type Manifest = {
  series: { seriesNumber: number; classifiedType: string; volumes: number }[];
  assets: {
    type: string;
    path: string;
    byteSize: number;
    seriesNumber: number | null;
    metadata: Record<string, unknown>;
  }[];
  skipped: { file: string; reason: string }[];
  notes: string[];
  timings: Record<string, number>;
};

/** The middle `count` slice positions of a series (by SliceLocation), so the test runs on a slab, not the whole study. */
function middleSlab(dir: string, count: number): string[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.dcm'))
    .map((f) => {
      const { dataSet } = parseDicom(new Uint8Array(readFileSync(join(dir, f))));
      return { file: f, location: Number(dataSet.string('x00201041')) };
    });
  const locations = [...new Set(files.map((f) => f.location))].sort((a, b) => a - b);
  const first = Math.floor((locations.length - count) / 2);
  const keep = new Set(locations.slice(first, first + count));
  return files.filter((f) => keep.has(f.location)).map((f) => join(dir, f.file));
}

describe('iws process on a small study (a 10-slice slab of the Philips DTI and a 40-slice slab of the GE T1)', () => {
  let work: string;
  let output: string;
  let manifest: Manifest;
  let stderr: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'iws-process-'));
    const input = join(work, 'study');
    output = join(work, 'out');
    for (const [folder, files] of [
      ['dti', middleSlab(DTI_DICOM, 10)],
      ['t1', middleSlab(T1_DICOM, 40)],
    ] as const) {
      mkdirSync(join(input, folder), { recursive: true });
      for (const file of files) copyFileSync(file, join(input, folder, file.split('/').pop()!));
    }
    writeFileSync(join(input, 'readme.txt'), 'not an image');
    const result = await run(
      process.execPath,
      [IWS, 'process', input, output, '--id', 'ds-test', '--alias', 'PT-0001'],
      { maxBuffer: 64 << 20, env: { ...process.env, IWS_SECRET: 'test-secret' } },
    );
    manifest = JSON.parse(result.stdout) as Manifest;
    stderr = result.stderr;
  }, 120_000);
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('classifies both series and writes every asset type', () => {
    expect(manifest.series.map((s) => s.classifiedType).sort()).toEqual(['DTI', 'T1']);
    expect(new Set(manifest.assets.map((a) => a.type))).toEqual(
      new Set(['VOLUME', 'THUMBNAIL', 'SURFACE', 'TRACT', 'REPORT']),
    );
    for (const asset of manifest.assets) {
      expect(existsSync(asset.path)).toBe(true);
      expect(readFileSync(asset.path).length).toBe(asset.byteSize);
    }
    expect(JSON.parse(readFileSync(join(output, 'manifest.json'), 'utf8'))).toEqual(manifest);
  });

  it('reports the non-DICOM file as skipped and times every stage', () => {
    expect(manifest.skipped).toEqual([{ file: 'readme.txt', reason: 'Not a DICOM file' }]);
    expect(Object.keys(manifest.timings)).toEqual([
      'anonymize',
      'classify',
      'convert',
      'thumbnail',
      'surface',
      'tracts',
      'report',
    ]);
    expect(stderr).toContain('iws process: tracts');
  });

  it('writes a closed surface, FA maps and a valid .trk for the slab', () => {
    const surface = manifest.assets.find((a) => a.type === 'SURFACE')!;
    expect(surface.path.endsWith('.mz3')).toBe(true);
    expect(isClosedMesh(readMz3(readFileSync(surface.path)).indices)).toBe(true);
    const trk = readTrk(readFileSync(manifest.assets.find((a) => a.path.endsWith('.trk'))!.path));
    expect(trk.header).toMatchObject({ version: 2, headerSize: 1000, dims: [80, 80, 10] });
    expect(trk.streamlines.length).toBe(trk.header.count);
    expect(trk.streamlines.length).toBeGreaterThan(100);
    expect(
      manifest.assets
        .filter((a) => a.type === 'TRACT')
        .map((a) => a.path.replace(/^.*_/, ''))
        .sort(),
    ).toEqual(['colorfa.nii.gz', 'fa.nii.gz', 'tracts.trk']);
  });

  it('writes a report naming the dataset and both series', async () => {
    const report = manifest.assets.find((a) => a.type === 'REPORT')!;
    const { stdout: text } = await run('/usr/bin/pdftotext', ['-layout', report.path, '-']);
    for (const expected of [
      'ds-test',
      'PT-0001',
      'DTI',
      'T1',
      'dwi/dwi',
      'anat/T1w',
      'Series 601 streamlines',
      'Files skipped',
    ])
      expect(text).toContain(expected);
  });
});
