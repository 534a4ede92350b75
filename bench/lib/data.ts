/**
 * What every bench reads: the shared test data (located by the tests' helper, as CI lays it out), the reference
 * tools (Debian's dcm2niix and gdcmanon), and a few helpers for timing and printing.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_DEIDENTIFICATION_POLICY } from '#shared/schemas/api/hospital-admin.ts';
import { REPO_ROOT, SHARED_DATA } from '#tests/helpers/shared-data.ts';

/** Located once for tests and benches alike (tests/helpers/shared-data.ts). */
export { REPO_ROOT, SHARED_DATA };
/** The shared GE T1 (inversion-recovery SPGR): one series of 196 files, the study the issues measure on. */
export const GE_T1_FOLDER = join(SHARED_DATA, 'dicom/ge-t1-ir-spgr/dicom');

/** What the benchmarks hand `iws process` (processFiles): a made-up dataset with the default de-identification. */
export function benchProcessOptions() {
  return {
    hospitalId: 'bench',
    datasetId: 'bench',
    secret: 'bench-secret',
    anonymization: { ...DEFAULT_DEIDENTIFICATION_POLICY.defaults },
    dataset: {
      patientAlias: 'BENCH',
      studyType: 'RESEARCH' as const,
      studyDescription: '',
      clinicalIndication: '',
      orderingPhysician: '',
      department: '',
    },
  };
}

export const NATIVE_DCM2NIIX = '/usr/bin/dcm2niix';
export const GDCMANON = '/usr/bin/gdcmanon';

export type InputFile = { name: string; bytes: Uint8Array };

/** The plain files of `folder` (not recursive), sorted by name, as absolute paths. */
export function listFolderFiles(folder: string): string[] {
  return readdirSync(folder)
    .sort()
    .map((name) => join(folder, name))
    .filter((path) => statSync(path).isFile());
}

export function readFolderFiles(folder: string): InputFile[] {
  return listFolderFiles(folder).map((path) => ({
    name: path.slice(folder.length + 1),
    bytes: new Uint8Array(readFileSync(path)),
  }));
}

export function totalBytes(paths: string[]): number {
  return paths.reduce((sum, path) => sum + statSync(path).size, 0);
}

/** True when `path` exists and may be executed (a reference tool that is installed). */
export function toolPresent(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The version a tool prints (e.g. `dcm2niix -v` prints it and exits with status 3), or 'unknown'. */
export function toolVersion(path: string, args: string[], pattern = /v?\d+(?:\.\d+)+\S*/): string {
  const run = spawnSync(path, args, { encoding: 'utf8' });
  return `${run.stdout ?? ''}${run.stderr ?? ''}`.match(pattern)?.[0] ?? 'unknown';
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Milliseconds `body` takes (wall clock). */
export function timeSync(body: () => void): number {
  const started = performance.now();
  body();
  return performance.now() - started;
}

export async function timeAsync(body: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await body();
  return performance.now() - started;
}

/** Rows of cells as left-aligned text columns (numbers right-aligned), two spaces apart. */
export function formatTable(header: string[], rows: string[][]): string {
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((row) => (row[column] ?? '').length)));
  const numeric = (cell: string) => /^[-+]?[\d.,]+(?:\s?\S{0,6})?$/.test(cell) && /\d/.test(cell[0] ?? '');
  const line = (row: string[]) =>
    row
      .map((cell, column) =>
        numeric(cell) && column > 0 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!),
      )
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

export const ms = (value: number): string => `${value.toFixed(0)} ms`;
export const ratio = (value: number): string => `${value.toFixed(2)}x`;
/** "1.61x (aim: within 3x, met)" */
export function ratioAgainstAim(value: number, aim: number): string {
  return `${ratio(value)} (aim: within ${aim}x: ${value <= aim ? 'met' : 'NOT met'})`;
}
