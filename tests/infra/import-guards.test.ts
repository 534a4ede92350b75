import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

// The import boundaries of docs/architecture.md#import-boundaries hold for code not written yet: every feature folder
// is fenced off from the others, and the import graph counts a cycle made of type-only imports.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FEATURES = path.join(ROOT, 'web', 'src', 'features');

const features = readdirSync(FEATURES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** One module of a feature, as an #alias import (the only way out of a folder). */
function someModuleOf(feature: string): string {
  const walk = (dir: string): string | undefined => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        const found = walk(full);
        if (found) return found;
      } else if (/\.tsx?$/.test(entry.name)) return full;
    }
    return undefined;
  };
  const file = walk(path.join(FEATURES, feature));
  if (!file) throw new Error(`web/src/features/${feature} has no module`);
  return `#web/${path
    .relative(path.join(ROOT, 'web', 'src'), file)
    .split(path.sep)
    .join('/')}`;
}

const temporary: string[] = [];
afterAll(() => temporary.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('import guards', () => {
  it('fences every feature folder off from the others, without naming it in eslint.config.js', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const refused: string[] = [];
    for (const [i, feature] of features.entries()) {
      const other = features[(i + 1) % features.length]!;
      const [result] = await eslint.lintText(`export * from '${someModuleOf(other)}';\n`, {
        filePath: path.join(FEATURES, feature, 'guard-probe.ts'),
      });
      if (result!.messages.some((message) => message.ruleId === 'import-x/no-restricted-paths')) refused.push(feature);
    }

    expect(features.length).toBeGreaterThan(1);
    expect(refused).toEqual(features);
  });

  it('refuses a cycle of type-only imports (npm run graph)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'import-guards-'));
    temporary.push(dir);
    writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b.ts';\nexport type A = { b?: B };\n");
    writeFileSync(path.join(dir, 'b.ts'), "import type { A } from './a.ts';\nexport type B = { a?: A };\n");

    const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(
        process.execPath,
        [path.join(ROOT, 'node_modules', '.bin', 'depcruise'), dir, '--config', '.dependency-cruiser.cjs'],
        { cwd: ROOT },
        (error, stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stdout + stderr }),
      );
    });

    expect(code, output).not.toBe(0);
    expect(output).toMatch(/error no-circular: .*a\.ts/);
  });
});
