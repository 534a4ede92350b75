/**
 * The one place that locates the reference data (real scanner DICOM, labelled sidecars, the PS3.15 table): the folder
 * `../shared/data` beside the checkout, where CI puts a read-only copy beside the clone (README.md, "Patient data
 * rules"). `IWS_SHARED_DATA` points elsewhere. Tests and benches read it only through this module.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file sits in tests/helpers). */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The reference data folder: `$IWS_SHARED_DATA` when set, else `../shared/data` from the repository root. */
export const SHARED_DATA = process.env.IWS_SHARED_DATA
  ? resolve(process.env.IWS_SHARED_DATA)
  : resolve(REPO_ROOT, '../shared/data');
export const SHARED_DICOM = join(SHARED_DATA, 'dicom');

/**
 * A path inside the reference data that must exist: throws (a test fails, never skips) naming the path expected and
 * how to point elsewhere.
 */
export function sharedDataPath(...parts: string[]): string {
  const path = join(SHARED_DATA, ...parts);
  if (!existsSync(path))
    throw new Error(
      `Reference test data missing: expected ${path} ` +
        (process.env.IWS_SHARED_DATA
          ? `(IWS_SHARED_DATA is ${process.env.IWS_SHARED_DATA})`
          : `(the shared data folder sits beside the checkout at ../shared/data; IWS_SHARED_DATA points elsewhere)`),
    );
  return path;
}

/** The reference DICOM folder, checked to exist. */
export function requireSharedData(): string {
  return sharedDataPath('dicom');
}

/** Every file below a folder, sorted, skipping reference-output folders named `ref`. */
export function listFiles(folder: string): string[] {
  return readdirSync(folder)
    .sort()
    .flatMap((name) => {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) return name === 'ref' ? [] : listFiles(path);
      return [path];
    });
}
