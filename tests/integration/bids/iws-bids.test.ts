import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { unzipFiles } from '#shared/dicom/bids/zip.ts';
import { readNifti } from '#shared/dicom/nifti.ts';
import { dataPath } from '#tests/unit/convert/data.ts';
import { describeIssues, runBidsValidator, writeDatasetFolder } from './validator.ts';

const IWS = fileURLToPath(new URL('../../../cli/iws.mjs', import.meta.url));
const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'iws-bids-cli-'));

async function iws(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [IWS, ...args], { maxBuffer: 32 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

describe('iws bids', () => {
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it.each([
    [
      'ge-t1-ir-spgr',
      ['--subject', 'ge01', '--session', 'pre'],
      'sub-ge01/ses-pre/anat/sub-ge01_ses-pre_T1w.nii.gz',
      'anat',
    ],
    ['philips-dti-b2000', ['--subject', '02'], 'sub-02/dwi/sub-02_dwi.nii.gz', 'dwi'],
  ])(
    'turns the shared %s study into a BIDS ZIP that bids-validator accepts with zero errors',
    async (study, options, niftiPath, datatype) => {
      // Prepare
      const out = join(work, `${study}.zip`);

      // Act
      const result = await iws('bids', dataPath(study, 'dicom'), out, ...options);

      // Assess
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const summary = JSON.parse(result.stdout);
      expect(summary.series.map((entry: { path: string; datatype: string }) => [entry.path, entry.datatype])).toEqual([
        [niftiPath, datatype],
      ]);
      const files = await unzipFiles(new Uint8Array(readFileSync(out)));
      expect(readNifti(files.get(niftiPath)!).dims[1]).toBeGreaterThan(0);
      const folder = writeDatasetFolder(files);
      const report = runBidsValidator(folder);
      rmSync(folder, { recursive: true, force: true });
      expect(describeIssues(report.issues.errors)).toEqual([]);
      if (datatype === 'dwi') {
        const bval = new TextDecoder().decode(files.get(niftiPath.replace('.nii.gz', '.bval')));
        expect(bval.trim().split(/\s+/).map(Number)).toEqual(
          readFileSync(dataPath(study, 'ref', 'WIP_dti_ax_601.bval'), 'utf8')
            .trim()
            .split(/\s+/)
            .map(Number),
        );
      }
    },
  );

  it('explains its options with --help and rejects a missing output', async () => {
    const help = await iws('bids', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: iws bids <input> <out.zip> [--subject ID] [--session ID]');
    const missing = await iws('bids', dataPath('ct-small'));
    expect(missing.code).toBe(2);
  });
});

describe('iws convert', () => {
  it('writes one NIfTI + sidecar per series and prints the outputs as JSON', async () => {
    // Prepare
    const outdir = join(work, 'converted');

    // Act
    const result = await iws('convert', dataPath('transfer-syntaxes', 'dicom'), outdir);

    // Assess
    expect(result.code).toBe(0);
    const outputs = JSON.parse(result.stdout) as {
      seriesNumber: number;
      nifti: string;
      sidecar: string;
      bval: string | null;
    }[];
    expect(outputs.map((output) => output.seriesNumber)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const output of outputs) {
      expect(existsSync(output.nifti) && existsSync(output.sidecar)).toBe(true);
      expect(output.bval).toBeNull();
    }
    expect(outputs[0]!.nifti).toBe(join(outdir, '1_ax_asc_35sl.nii.gz'));
  });

  it('fails with status 1 when nothing converts', async () => {
    const result = await iws('convert', dataPath('philips-dti-b2000', 'dicom', 'notes.txt'), join(work, 'none'));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no DICOM series could be converted');
  });
});
