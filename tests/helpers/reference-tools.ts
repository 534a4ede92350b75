import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Reference tools must be installed (CI installs them); a missing one fails the test with this message, never skips it. */
export function requireTool(name: string): string {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  if (found.status !== 0 || !found.stdout.trim()) {
    throw new Error(
      `Reference tool "${name}" is not installed; install it (Debian: dcmtk, dcm2niix, dicom3tools, libgdcm-tools) to run this test`,
    );
  }
  return found.stdout.trim();
}

/** The file rewritten by dcmtk in the deflated explicit little endian transfer syntax (1.2.840.10008.1.2.1.99). */
export function deflatedCopy(path: string): Uint8Array {
  const dcmconv = requireTool('dcmconv');
  const folder = mkdtempSync(join(tmpdir(), 'iws-deflate-'));
  try {
    const out = join(folder, 'deflated.dcm');
    execFileSync(dcmconv, ['+td', path, out]);
    return new Uint8Array(readFileSync(out));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
