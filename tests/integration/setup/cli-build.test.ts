import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireSharedData } from '#tests/helpers/shared-data.ts';

// The other CLI tests run the TypeScript source (cli/iws.mjs); this one builds the bin afresh and runs the build.
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const DATA = requireSharedData();
// Inside the repository, so the bundle's npm imports resolve from its node_modules as they do from cli/dist.
const OUT = join(ROOT, 'test-output', `cli-build-${process.pid}`);
const BIN = join(OUT, 'iws.mjs');

function node(...args: string[]) {
  return spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
}

beforeAll(() => {
  const build = node(join(ROOT, 'scripts/build-cli.mjs'), OUT);
  if (build.status !== 0) throw new Error(`scripts/build-cli.mjs failed:\n${build.stderr}`);
}, 60_000);
afterAll(() => rmSync(OUT, { recursive: true, force: true }));

describe('the built iws bin', () => {
  it('is what package.json names as the bin, built into the git-ignored cli/dist', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
      scripts: Record<string, string>;
    };
    expect(pkg.bin.iws).toBe('cli/dist/iws.mjs');
    expect(pkg.scripts.prepare).toContain('scripts/build-cli.mjs');
    expect(readFileSync(join(ROOT, '.gitignore'), 'utf8').split('\n')).toContain('cli/dist/');
  });

  it('answers --help from an entry that imports no command or engine code up front', () => {
    // Act
    const run = node(BIN, '--help');
    const entry = readFileSync(BIN, 'utf8');
    // Assert
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Usage: iws <command> [options]');
    expect(entry.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(statSync(BIN).mode & 0o111).not.toBe(0);
    // Every command is a dynamic import of its own chunk; no static import at all.
    expect(entry).not.toMatch(/^\s*import\s/m);
    expect(entry.match(/import\("\.\/[\w-]+\.mjs"\)/g)).toHaveLength(6);
  });

  it('runs a command from its own chunk', () => {
    // Act
    const run = node(BIN, 'classify', join(DATA, 'philips-dti-b2000/ref/WIP_dti_ax_601.json'));
    // Assert
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const rows = JSON.parse(run.stdout) as { classifiedType: string }[];
    expect(rows.map((row) => row.classifiedType)).toEqual(['DTI']);
  });
});
