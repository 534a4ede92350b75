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
import { PIPELINE_TASKS } from '#shared/definitions/state-machine.ts';
import { isClosedMesh } from '#shared/processing/isosurface.ts';
import { readMz3 } from '#shared/processing/surface.ts';
import { readTrk } from '#shared/processing/trk.ts';
import { DTI_DICOM, middleSlab, T1_DICOM } from './fixtures.ts';

const run = promisify(execFile);
const IWS = resolve(process.cwd(), 'cli/iws.mjs');

type Manifest = {
  dataset: { id: string; hospitalId: string; status: string };
  series: { seriesId: string; seriesNumber: number; classifiedType: string }[];
  assets: {
    type: string;
    key: string;
    path: string;
    byteSize: number;
    seriesId: string | null;
    metadata: Record<string, unknown>;
  }[];
  skipped: { file: string; reason: string }[];
  timings: Record<string, number>;
};

describe('iws process (the state machine stages over a folder) on a small study (a 10-slice slab of the Philips DTI and a 40-slice slab of the GE T1)', () => {
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

  it('takes the dataset through every stage to COMPLETE, classifies both series and writes every asset type', () => {
    expect(manifest.dataset).toEqual({ id: 'ds-test', hospitalId: 'cli', status: 'COMPLETE' });
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

  it('reports the non-DICOM file as skipped and times every stage of the state machine, in its order', () => {
    expect(manifest.skipped).toEqual([{ file: 'readme.txt', reason: 'Not a DICOM file' }]);
    expect(Object.keys(manifest.timings)).toEqual(PIPELINE_TASKS.map((t) => t.state));
    expect(stderr).toContain('iws process: BuildTracts');
  });

  it('writes every asset under the key the cloud would use, under <outdir>/assets', () => {
    for (const asset of manifest.assets) {
      expect(asset.key.startsWith('cli/ds-test/')).toBe(true);
      expect(asset.path).toBe(join(output, 'assets', ...asset.key.split('/')));
    }
    expect(manifest.assets.find((a) => a.type === 'REPORT')!.key).toBe('cli/ds-test/report.pdf');
    // The raw copies are gone once de-identified; the de-identified ones stay under studies/.
    expect(existsSync(join(output, 'uploads', 'cli', 'ds-test', 'raw'))).toBe(false);
    // Its series' folders, and the series' header bundles beside them (docs/pipeline.md#series-headers).
    const studies = readdirSync(join(output, 'studies', 'cli', 'ds-test'));
    expect(studies.filter((name) => name !== 'headers')).toHaveLength(2);
    expect(readdirSync(join(output, 'studies', 'cli', 'ds-test', 'headers'))).toHaveLength(2);
  });

  it('writes a closed surface, FA maps and a valid .trk for the slab', () => {
    const surface = manifest.assets.find((a) => a.type === 'SURFACE')!;
    const t1 = manifest.series.find((s) => s.classifiedType === 'T1')!;
    expect(surface.seriesId).toBe(t1.seriesId);
    expect(surface.path.endsWith('.mz3')).toBe(true);
    expect(isClosedMesh(readMz3(readFileSync(surface.path)).indices)).toBe(true);
    const trk = readTrk(readFileSync(manifest.assets.find((a) => a.path.endsWith('.trk'))!.path));
    expect(trk.header).toMatchObject({ version: 2, headerSize: 1000, dims: [80, 80, 10] });
    expect(trk.streamlines.length).toBe(trk.header.count);
    expect(trk.streamlines.length).toBeGreaterThan(100);
    const dti = manifest.series.find((s) => s.classifiedType === 'DTI')!;
    const derived = manifest.assets.filter((a) => a.seriesId === dti.seriesId && /-(fa|colorfa|tracts)\./.test(a.key));
    expect(derived.map((a) => [a.type, a.key.split('/').pop()]).sort()).toEqual([
      ['TRACT', 'volume-0-tracts.trk'],
      ['VOLUME', 'volume-0-colorfa.nii.gz'],
      ['VOLUME', 'volume-0-fa.nii.gz'],
    ]);
  });

  it('writes a report naming the dataset and both series', async () => {
    const report = manifest.assets.find((a) => a.type === 'REPORT')!;
    const { stdout: text } = await run('/usr/bin/pdftotext', ['-layout', report.path, '-']);
    for (const expected of ['ds-test', 'PT-0001', 'DTI', 'T1', 'dwi/dwi', 'anat/T1w', 'Streamlines', 'Files rejected'])
      expect(text).toContain(expected);
  });
});
