import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDicom } from '#shared/dicom/parse.ts';
import { SHARED_DICOM } from '#tests/helpers/shared-data.ts';

/** The shared real-DICOM test data (located by tests/helpers/shared-data.ts). */
export const DATA_DIR = SHARED_DICOM;
export const DTI_DICOM = join(DATA_DIR, 'philips-dti-b2000/dicom/601_WIP_dti_ax');
export const T1_DICOM = join(DATA_DIR, 'ge-t1-ir-spgr/dicom');
export const PYTHON = '/usr/bin/python3';
const DCM2NIIX = '/usr/bin/dcm2niix';

/** Fails (never skips) when a reference tool is missing, saying what to install. */
export function requireTool(path: string, install: string): void {
  if (!existsSync(path)) throw new Error(`Reference tool ${path} is missing: install ${install} (CI installs it)`);
}

export function requireDipy(): void {
  requireTool(PYTHON, 'python3');
  try {
    execFileSync(PYTHON, ['-c', 'import dipy, nibabel'], { stdio: 'pipe' });
  } catch {
    throw new Error('python3 cannot import dipy: install the Debian package python3-dipy (CI installs it)');
  }
}

export type ConvertedSeries = {
  dir: string;
  nifti: Uint8Array;
  niftiPath: string;
  bval?: string;
  bvec?: string;
  bvalPath?: string;
  bvecPath?: string;
};

/** Converts a DICOM folder with the native dcm2niix (the reference converter) into a temporary folder. */
export function convertWithDcm2niix(dicomDir: string): ConvertedSeries {
  requireTool(DCM2NIIX, 'the Debian package dcm2niix');
  if (!existsSync(dicomDir)) throw new Error(`Test data missing: ${dicomDir}`);
  const dir = mkdtempSync(join(tmpdir(), 'iws-processing-'));
  execFileSync(DCM2NIIX, ['-z', 'y', '-f', 'series', '-o', dir, dicomDir], { stdio: 'pipe' });
  const niftiPath = join(dir, 'series.nii.gz');
  if (!existsSync(niftiPath)) throw new Error(`dcm2niix wrote no series.nii.gz (found ${readdirSync(dir).join(', ')})`);
  const bvalPath = join(dir, 'series.bval');
  const bvecPath = join(dir, 'series.bvec');
  const hasGradients = existsSync(bvalPath) && existsSync(bvecPath);
  return {
    dir,
    niftiPath,
    nifti: readFileSync(niftiPath),
    ...(hasGradients
      ? { bvalPath, bvecPath, bval: readFileSync(bvalPath, 'utf8'), bvec: readFileSync(bvecPath, 'utf8') }
      : {}),
  };
}

/** The middle `count` slice positions of a series (by SliceLocation), so the test runs on a slab, not the whole study. */
export function middleSlab(dir: string, count: number): string[] {
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
