import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { requireSharedData } from '#tests/helpers/shared-data.ts';

const DICOM = requireSharedData();
const OUT = mkdtempSync(join(tmpdir(), 'iws-anon-cli-'));
afterAll(() => rmSync(OUT, { recursive: true, force: true }));

describe('iws anonymize', () => {
  it('mirrors the tree, prints a JSON summary, and exits 1 with one catalogue line per failed file', () => {
    // Act
    const run = spawnSync('node', ['cli/iws.mjs', 'anonymize', join(DICOM, 'enhanced-mr-small'), OUT], {
      encoding: 'utf8',
      env: { ...process.env, IWS_SECRET: 'cli-test' },
    });
    // Assess
    expect(run.status).toBe(1);
    const summary = JSON.parse(run.stdout) as { files: number; written: number; failed: number };
    expect(summary).toMatchObject({ files: 6, written: 5, failed: 1 });
    expect(run.stderr.trim().split('\n')).toEqual(['emri_small_jpeg_2k_lossless_too_short.dcm: DICOM parsing failed']);
    expect(existsSync(join(OUT, 'emri_small_big_endian.dcm'))).toBe(true);
  });

  it("writes a gzip input as plain DICOM and, with no secret set, says where the machine's secret is kept", () => {
    // A config folder of the test's own: the run makes its secret there (cli-secret.test.ts covers the file).
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: join(OUT, 'config') };
    delete env.IWS_SECRET;
    const run = spawnSync(
      'node',
      ['cli/iws.mjs', 'anonymize', join(DICOM, 'siemens-dwi-mosaic'), join(OUT, 'mosaic')],
      { encoding: 'utf8', env },
    );
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/IWS_SECRET is not set/);
    expect(run.stderr).toContain(join(OUT, 'config', 'iws', 'secret'));
    expect(existsSync(join(OUT, 'mosaic', 'siemens_dwi_0.dcm'))).toBe(true);
  });
});
