import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const VALIDATOR = fileURLToPath(new URL('../../../node_modules/.bin/bids-validator', import.meta.url));

export type ValidatorIssue = {
  key: string;
  code: number;
  reason?: string;
  files: { file?: { relativePath?: string } | null }[];
};
export type ValidatorReport = { issues: { errors: ValidatorIssue[]; warnings: ValidatorIssue[] } };

/** Runs the npm bids-validator (1.x, offline) on a folder. Fails loudly when the validator is not installed. */
export function runBidsValidator(folder: string): ValidatorReport {
  if (!existsSync(VALIDATOR)) throw new Error(`bids-validator is not installed (${VALIDATOR}); run npm install`);
  let stdout: string;
  try {
    stdout = execFileSync(VALIDATOR, [folder, '--json'], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    // The validator exits 1 when it finds errors; its JSON report is still on stdout.
    stdout = (error as { stdout?: string }).stdout ?? '';
    if (!stdout.trim().startsWith('{')) throw error;
  }
  return JSON.parse(stdout) as ValidatorReport;
}

/** Writes dataset files (paths → text or bytes) into a fresh temporary folder and returns it. */
export function writeDatasetFolder(files: Map<string, Uint8Array | string>): string {
  const root = mkdtempSync(join(tmpdir(), 'iws-bids-'));
  for (const [path, content] of files) {
    const target = join(root, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  return root;
}

export function describeIssues(issues: ValidatorIssue[]): string[] {
  return issues.map(
    (issue) =>
      `${issue.key}: ${issue.reason ?? ''} [${issue.files
        .map((file) => file.file?.relativePath)
        .filter(Boolean)
        .slice(0, 3)
        .join(', ')}]`,
  );
}
