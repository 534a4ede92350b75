import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The shared real-DICOM test data: `../shared/data` from the repository root (data/README.md). */
export const DATA_DIR = fileURLToPath(new URL('../../../../shared/data/dicom', import.meta.url));

export function dataPath(...parts: string[]): string {
  const path = join(DATA_DIR, ...parts);
  if (!existsSync(path)) throw new Error(`Test data missing: ${path} (expected ../shared/data beside the repository)`);
  return path;
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
