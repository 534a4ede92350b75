/**
 * The Vitest projects (vitest.config.ts), by folder, so that `--project unit` runs only fast, pure tests: a test that
 * starts the local twin, spawns a process (the `iws` CLI, its build, a reference tool such as dcmtk, dcm2niix,
 * pdftotext or the BIDS validator) or takes more than a few seconds lives in tests/integration/<area>/, a browser test
 * in tests/e2e. tests/unit/projects.test.ts checks that every test file falls in exactly one project.
 *
 * Patterns use `**`, `*` and `{a,b}` only (what the check understands).
 */
export const TEST_FILE_PATTERNS = ['tests/**/*.test.ts', 'tests/**/*.test.tsx'];

/**
 * `workers`: how many files of the project run at once. Pure projects take every core; the twin and the browser run
 * one file at a time, as each already spreads over several processes (the twin's stand-ins, Chromium, dcmtk), and a
 * second one beside it on two cores only makes both wait. The pure projects run first, together; then the others, one after the other.
 */
export type TestProject = {
  name: string;
  include: readonly string[];
  exclude?: readonly string[];
  workers: 'all-cores' | 'one';
};

export const TEST_PROJECTS: readonly TestProject[] = [
  /** Pure and fast: the domain core, the DICOM engine, adapters against in-process fakes. */
  { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'], workers: 'all-cores' },
  /** The site's features and utilities (jsdom where a file's docblock asks for it). */
  { name: 'web', include: ['tests/web/**/*.test.{ts,tsx}'], workers: 'all-cores' },
  /** The local twin, the CDK app, spawned processes and reference tools. */
  {
    name: 'integration',
    include: ['tests/integration/**/*.test.{ts,tsx}', 'tests/infra/**/*.test.{ts,tsx}'],
    workers: 'one',
  },
  /** The site in headless Chromium against the twin. */
  { name: 'e2e', include: ['tests/e2e/**/*.test.{ts,tsx}'], workers: 'one' },
];
