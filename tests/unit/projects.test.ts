import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_FILE_PATTERNS, TEST_PROJECTS } from '#tests/projects.ts';
import { REPO_ROOT } from '#tests/helpers/shared-data.ts';

/** A glob as a regular expression: `**` any folders, `*` any name part, `{a,b}` alternatives (tests/projects.ts). */
function globToRegExp(glob: string): RegExp {
  if (/[?[\]!]/.test(glob)) throw new Error(`unsupported glob syntax in ${glob}`);
  const source = glob
    .split(/(\*\*\/|\*|\{[^}]*\}|[.+^$()|\\])/)
    .map((part) => {
      if (part === '**/') return '(?:[^/]+/)*';
      if (part === '*') return '[^/]*';
      if (part.startsWith('{')) return `(?:${part.slice(1, -1).split(',').map(escape).join('|')})`;
      return escape(part);
    })
    .join('');
  return new RegExp(`^${source}$`);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

function filesBelow(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesBelow(join(folder, entry.name)) : [join(folder, entry.name)],
  );
}

const matches = (patterns: readonly string[], file: string) => patterns.some((p) => globToRegExp(p).test(file));

describe('the Vitest projects (tests/projects.ts)', () => {
  it('reads the globs it checks with', () => {
    expect(globToRegExp('tests/unit/**/*.test.{ts,tsx}').test('tests/unit/a/b/c.test.tsx')).toBe(true);
    expect(globToRegExp('tests/unit/**/*.test.{ts,tsx}').test('tests/unit/c.test.ts')).toBe(true);
    expect(globToRegExp('tests/unit/**/*.test.{ts,tsx}').test('tests/unit-x/c.test.ts')).toBe(false);
    expect(globToRegExp('tests/*.test.ts').test('tests/a/b.test.ts')).toBe(false);
  });

  it('puts every test file in exactly one project', () => {
    const tests = filesBelow(join(REPO_ROOT, 'tests'))
      .map((path) => relative(REPO_ROOT, path).split('\\').join('/'))
      .filter((file) => matches(TEST_FILE_PATTERNS, file));
    expect(tests.length).toBeGreaterThan(100);
    const misplaced = tests
      .map((file) => ({
        file,
        projects: TEST_PROJECTS.filter(
          (project) => matches(project.include, file) && !matches(project.exclude ?? [], file),
        ).map((project) => project.name),
      }))
      .filter((entry) => entry.projects.length !== 1);
    expect(misplaced).toEqual([]);
  });
});
