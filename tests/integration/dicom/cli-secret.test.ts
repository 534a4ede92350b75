import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { requireSharedData } from '#tests/helpers/shared-data.ts';

/**
 * `iws` never keys its pseudonyms with a secret published in the repository (README.md, "iws"): without IWS_SECRET it
 * makes a random secret once per machine and keeps it in the user's config folder, so every run there agrees.
 */
const DICOM = requireSharedData();
const INPUT = join(DICOM, 'ct-small', 'CT_small.dcm');
/** The secret `iws` used to fall back to, as it stood in the repository: nobody's output may be keyed with it. */
const FORMERLY_PUBLISHED = 'iws-development-secret-not-for-real-data';
const WORK = mkdtempSync(join(tmpdir(), 'iws-cli-secret-'));
afterAll(() => rmSync(WORK, { recursive: true, force: true }));

let runs = 0;
/** `iws anonymize` of one CT file with a home and config folder of the test's own; returns the output and stderr. */
function anonymize(env: { home: string; xdg?: string; secret?: string }) {
  const environment: NodeJS.ProcessEnv = { ...process.env, HOME: env.home };
  delete environment.IWS_SECRET;
  delete environment.XDG_CONFIG_HOME;
  if (env.xdg) environment.XDG_CONFIG_HOME = env.xdg;
  if (env.secret !== undefined) environment.IWS_SECRET = env.secret;
  const out = join(WORK, `out-${++runs}`);
  const run = spawnSync('node', ['cli/iws.mjs', 'anonymize', INPUT, out], { encoding: 'utf8', env: environment });
  expect(run.status, run.stderr).toBe(0);
  return { bytes: readFileSync(join(out, 'CT_small.dcm')), stderr: run.stderr };
}

describe('iws without IWS_SECRET', () => {
  it('keys every run of the machine with one random secret kept 0600 in the config folder, said once on stderr', () => {
    const home = mkdtempSync(join(WORK, 'home-'));
    const first = anonymize({ home });
    const file = join(home, '.config', 'iws', 'secret');
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, '.config', 'iws')).mode & 0o077).toBe(0);
    expect(first.stderr).toContain(file);
    expect(first.stderr).toMatch(/same secret gives the same pseudonyms/);

    const second = anonymize({ home });
    expect(second.stderr).toBe('');
    expect(Buffer.compare(second.bytes, first.bytes)).toBe(0);

    const published = anonymize({ home: mkdtempSync(join(WORK, 'home-')), secret: FORMERLY_PUBLISHED });
    expect(Buffer.compare(published.bytes, first.bytes)).not.toBe(0);
    // Another machine (another config folder) gets a secret of its own.
    const elsewhere = anonymize({ home: mkdtempSync(join(WORK, 'home-')) });
    expect(Buffer.compare(elsewhere.bytes, first.bytes)).not.toBe(0);
  });

  it('keeps the secret under XDG_CONFIG_HOME when it is set', () => {
    const home = mkdtempSync(join(WORK, 'home-'));
    const xdg = mkdtempSync(join(WORK, 'xdg-'));
    anonymize({ home, xdg });
    expect(statSync(join(xdg, 'iws', 'secret')).mode & 0o777).toBe(0o600);
    expect(existsSync(join(home, '.config'))).toBe(false);
  });

  it('leaves the machine file alone when IWS_SECRET names the secret', () => {
    const home = mkdtempSync(join(WORK, 'home-'));
    const named = anonymize({ home, secret: 'named-secret' });
    expect(named.stderr).toBe('');
    expect(existsSync(join(home, '.config'))).toBe(false);
    // The same named secret gives the same output wherever it runs.
    const again = anonymize({ home: mkdtempSync(join(WORK, 'home-')), secret: 'named-secret' });
    expect(Buffer.compare(again.bytes, named.bytes)).toBe(0);
  });
});
