/**
 * QIDO wildcard matching (PS3.4 C.2.2.2.4) against a 119-character description: the walk QIDO uses
 * (shared/dicom/wildcard.ts) next to the regular-expression translation it replaced, for keys of one to seven stars
 * that cannot match (the worst case: every way of placing the stars is tried). Median of N runs of 200 matches each.
 * Run: npx tsx bench/qido-wildcard.ts [--runs N]
 */
import { wildcardMatches } from '#shared/dicom/wildcard.ts';

const runsIndex = process.argv.indexOf('--runs');
const runs = runsIndex >= 0 ? Math.max(1, Number(process.argv[runsIndex + 1]) || 5) : 5;
const MATCHES_PER_RUN = 200;
/** A description rich in the key's letter, as a real one can be: 119 characters. */
const value = 'SAGITTAL AXIAL ANATOMICAL '.repeat(5).slice(0, 119);

function byRegExp(text: string, pattern: string): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`).test(text);
}

function medianMs(match: (text: string, pattern: string) => boolean, key: string): number {
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    for (let i = 0; i < MATCHES_PER_RUN; i++) match(value, key);
    times.push((performance.now() - start) / MATCHES_PER_RUN);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

process.stdout.write(`value: ${value.length} characters; ms per match, median of ${runs} runs\n`);
process.stdout.write(`${'stars'.padEnd(6)} ${'regexp'.padStart(10)} ${'walk'.padStart(10)} ${'ratio'.padStart(8)}\n`);
for (let stars = 1; stars <= 7; stars++) {
  // "*A*A…*Z": the stars may fall anywhere among the A's, and the final Z is never there.
  const key = `${'*A'.repeat(stars)}*Z`;
  const regexp = stars <= 6 ? medianMs(byRegExp, key) : Number.NaN;
  const walk = medianMs(wildcardMatches, key);
  process.stdout.write(
    `${String(stars).padEnd(6)} ${(Number.isNaN(regexp) ? 'skipped' : regexp.toFixed(3)).padStart(10)} ${walk.toFixed(4).padStart(10)} ${(Number.isNaN(regexp) ? '' : `${(regexp / walk).toFixed(0)}x`).padStart(8)}\n`,
  );
}
