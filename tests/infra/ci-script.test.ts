import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// CI (.ci/run, docs/architecture.md#checks) stops at the first failing step, and the type check is one of them: vitest and the
// bundlers strip types, so a type error passes every other step.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OUT = path.join(ROOT, 'test-output', `ci-script-${process.pid}`);
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

const ciScript = readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8');
/** The script's commands, comments and blank lines left out. */
const commands = ciScript
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));
const scripts = (
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;
/** `npm run typecheck` is one `tsc -p <project> --noEmit` per TypeScript project, joined by &&. */
const typecheckProjects = scripts.typecheck!.split('&&').map((part) => {
  const match = /^tsc -p (\S+) --noEmit$/.exec(part.trim());
  expect(match, `typecheck step "${part.trim()}" is not tsc -p <project> --noEmit`).not.toBeNull();
  return match![1]!;
});

/**
 * Runs tsc on two files with the compiler options of `project` (a throwaway tsconfig extending it), as typecheck does:
 * a few seconds, not the whole project.
 */
function typecheckProbes(project: string, files: Record<string, string>): Promise<{ code: number; output: string }> {
  const dir = path.join(OUT, project.replace(/[^\w]+/g, '-'));
  mkdirSync(dir, { recursive: true });
  for (const [name, source] of Object.entries(files)) writeFileSync(path.join(dir, name), source);
  const base = path.relative(dir, path.join(ROOT, project)).split(path.sep).join('/');
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ extends: base, include: Object.keys(files) }));
  return new Promise((resolve) => {
    execFile(process.execPath, [TSC, '-p', path.join(dir, 'tsconfig.json'), '--noEmit'], (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stdout + stderr });
    });
  });
}

afterAll(() => rmSync(OUT, { recursive: true, force: true }));

describe('.ci/run', () => {
  it('stops at the first failing command', () => {
    const strict = commands.findIndex((line) => /^set -(e|euo pipefail)$/.test(line));
    const firstNpm = commands.findIndex((line) => line.startsWith('npm '));

    expect(strict, 'set -e / set -euo pipefail').toBeGreaterThanOrEqual(0);
    expect(strict).toBeLessThan(firstNpm);
    expect(commands.filter((line) => /^set \+e\b/.test(line))).toEqual([]);
  });

  it('runs lint, then the type check, then the tests, none of them allowed to fail', () => {
    const lint = commands.indexOf('npm run lint');
    const typecheck = commands.indexOf('npm run typecheck');
    const test = commands.indexOf('npm test');

    expect(lint).toBeGreaterThanOrEqual(0);
    expect(typecheck).toBeGreaterThan(lint);
    expect(test).toBeGreaterThan(typecheck);
  });

  it('type-checks every TypeScript project: the functions, infra, shared, cli and tests one and the site', () => {
    expect(typecheckProjects).toEqual(['tsconfig.json', 'web/tsconfig.json']);
  });

  it.each(typecheckProjects)(
    'the type check of %s fails on a type error, and only on it',
    async (project) => {
      const { code, output } = await typecheckProbes(project, {
        // A plain type error, and one only the project's own options make an error (noUncheckedIndexedAccess).
        'broken.ts':
          "export const count: number = 'three';\nconst list: number[] = [];\nexport const first: number = list[0];\n",
        'sound.ts': 'const list: number[] = [];\nexport const first = list[0] ?? 0;\n',
      });
      const errors = output
        .split('\n')
        .filter((line) => /error TS\d+/.test(line))
        .map((line) => line.replace(/^\S*\/(?=[\w-]+\.ts\()/, ''));

      expect(code, output).not.toBe(0);
      expect(errors).toEqual([
        "broken.ts(1,14): error TS2322: Type 'string' is not assignable to type 'number'.",
        "broken.ts(3,14): error TS2322: Type 'number | undefined' is not assignable to type 'number'.",
      ]);
    },
    30_000,
  );
});
