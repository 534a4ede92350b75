import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The shared test data, resolved from the repository root (data/README.md: `../shared/data`). */
export const SHARED_DATA = resolve(process.cwd(), '../shared/data');
export const SHARED_DICOM = join(SHARED_DATA, 'dicom');

export function requireSharedData(): string {
  if (!existsSync(SHARED_DICOM))
    throw new Error(`Shared DICOM test data missing at ${SHARED_DICOM} (see data/README.md)`);
  return SHARED_DICOM;
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
