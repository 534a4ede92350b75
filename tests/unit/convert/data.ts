import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { SHARED_DICOM, sharedDataPath } from '#tests/helpers/shared-data.ts';

/** The shared real-DICOM test data (located by tests/helpers/shared-data.ts). */
export const DATA_DIR = SHARED_DICOM;

/** A path below the shared DICOM folder that must exist. */
export function dataPath(...parts: string[]): string {
  return sharedDataPath('dicom', ...parts);
}

/** Every file under `folder` (recursively) as conversion input, named by its path relative to the folder. */
export function readDicomFolder(
  folder: string,
  filter: (name: string) => boolean = (name) => /\.dcm(\.gz)?$/i.test(name),
): { name: string; bytes: Uint8Array }[] {
  const files: { name: string; bytes: Uint8Array }[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (filter(entry)) files.push({ name: relative(folder, path), bytes: new Uint8Array(readFileSync(path)) });
    }
  };
  walk(folder);
  return files;
}
