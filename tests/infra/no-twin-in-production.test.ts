import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TWIN_RESOURCES_ENV } from '#infra/local/function-runtime.ts';

/**
 * Production code (functions/ and shared/) knows nothing of the local twin (docs/architecture.md#import-boundaries):
 * the twin serves what the AWS adapters talk to, or installs its own ports from infra/local. This scans every source
 * file of production for the twin's names, its stand-ins, its imports and the variables only it sets, and lists each
 * offending line.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PRODUCTION = ['functions', 'shared'];
const SOURCE = /\.(ts|tsx|js|mjs|cjs|json)$/;

/** Variables the twin's own code reads or sets (IWS_…), less the handlers' logging switch, which tests set too. */
function twinVariables(): string[] {
  const names = new Set<string>([TWIN_RESOURCES_ENV, 'MAIL_DIR']);
  for (const file of sourceFiles(join(ROOT, 'infra/local'))) {
    for (const [name] of readFileSync(file, 'utf8').matchAll(/\bIWS_[A-Z0-9_]+\b/g)) names.add(name);
  }
  names.delete('IWS_SILENT_LOGS');
  return [...names];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|js|mjs|cjs)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const FORBIDDEN: { what: string; pattern: RegExp }[] = [
  { what: 'the twin', pattern: /\btwins?\b/i },
  { what: 'a stand-in of the twin', pattern: /dynalite|s3rver|cognito-local|aws-local-stepfunctions/i },
  { what: 'an import of the twin', pattern: /#infra\/|infra\/local/ },
  ...twinVariables().map((name) => ({
    what: 'a variable only the twin sets',
    pattern: new RegExp(`\\b${escape(name)}\\b`),
  })),
];

describe('production code and the local twin', () => {
  it('names neither the twin, its stand-ins, its modules nor its variables in functions/ and shared/', () => {
    const offending: string[] = [];
    for (const top of PRODUCTION) {
      for (const entry of readdirSync(join(ROOT, top), { withFileTypes: true, recursive: true })) {
        if (!entry.isFile() || !SOURCE.test(entry.name)) continue;
        const path = join(entry.parentPath, entry.name);
        const file = relative(ROOT, path).split('\\').join('/');
        readFileSync(path, 'utf8')
          .split('\n')
          .forEach((line, index) => {
            for (const { what, pattern } of FORBIDDEN) {
              if (pattern.test(line)) offending.push(`${file}:${index + 1} (${what}): ${line.trim()}`);
            }
          });
      }
    }
    expect(offending, offending.join('\n')).toEqual([]);
  });

  it('finds what it looks for', () => {
    // Prepare: lines a regression would bring back.
    const lines = [
      '// the local twin keeps mail in files',
      "import { x } from '#infra/local/mail.ts';",
      'const dir = process.env.MAIL_DIR;',
      'const seconds = Number(process.env.IWS_SHARE_LOCK_SECONDS);',
      '// dynalite has no transactions',
    ];

    // Assess
    for (const line of lines)
      expect(
        FORBIDDEN.some(({ pattern }) => pattern.test(line)),
        line,
      ).toBe(true);
    expect(FORBIDDEN.some(({ pattern }) => pattern.test('// between two points of a table'))).toBe(false);
  });
});
