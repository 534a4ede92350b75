import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../../scripts/ensure-reference-tools.mjs', import.meta.url));
const PACKAGES =
  'chromium dcm2niix dcmtk dicom3tools libgdcm-tools openssl orthanc orthanc-dicomweb poppler-utils python3-dipy python3-nibabel';
const NOBODY = '65534';

// A folder with no tools in it stands in for /usr/bin and PATH.
const empty = mkdtempSync(join(tmpdir(), 'iws-no-tools-'));
chmodSync(empty, 0o755);
afterAll(() => rmSync(empty, { recursive: true, force: true }));

function ensure(options: { env?: Record<string, string>; asNobody?: boolean }) {
  const node = [process.execPath, SCRIPT];
  // Dropping to an unprivileged user needs root; a non-root run is unprivileged already.
  const command =
    options.asNobody && process.getuid?.() === 0
      ? ['/usr/bin/setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', ...node]
      : node;
  const started = performance.now();
  const result = spawnSync(command[0]!, command.slice(1), {
    encoding: 'utf8',
    env: { ...process.env, ...options.env },
    timeout: 30_000,
  });
  return { ...result, ms: performance.now() - started };
}

describe('scripts/ensure-reference-tools.mjs', () => {
  it('stops at once with the sudo install line when it cannot install (not root)', () => {
    // Act
    const run = ensure({ env: { IWS_REFERENCE_TOOLS_BIN: empty, PATH: empty }, asNobody: true });
    // Assert
    expect(run.error).toBeUndefined();
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('this is not root');
    expect(run.stderr).toContain(
      `sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${PACKAGES}\n`,
    );
    expect(run.stderr).toContain(`  dcmtk: dcmdump, dcmconv, dcm2json, storescu, echoscu`);
    expect(run.stderr).toContain(`  orthanc: ${join(empty, 'Orthanc')}`);
    expect(run.stderr).toContain(`  orthanc-dicomweb: ${join(empty, 'libOrthancDicomWeb.so')}`);
    expect(run.ms).toBeLessThan(10_000);
  });

  it('stops at once without apt-get, naming every missing package', () => {
    // Act
    const run = ensure({ env: { IWS_REFERENCE_TOOLS_BIN: empty, PATH: empty } });
    // Assert
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/apt-get is not available|this is not root/);
    expect(run.stderr).toContain(
      `DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${PACKAGES}\n`,
    );
    expect(run.ms).toBeLessThan(10_000);
  });

  it('passes quietly when every tool is where the tests run it', () => {
    // Act
    const run = ensure({});
    // Assert
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('');
    expect(run.status).toBe(0);
  });
});
