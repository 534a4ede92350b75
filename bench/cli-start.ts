/**
 * Start-up time of `iws --help` next to a bare `node -e 0` on the same machine: the built bin (cli/dist/iws.mjs, built
 * afresh first), the TypeScript source through tsx (cli/iws.mjs, what the tests run) and `npx iws` (npm's own start on
 * top). Machines are noisy: runs are interleaved, and each figure is the median (and the best) of N runs; what the
 * bin adds over Node's own start is the figure to compare (aim: `iws --help` answers within 300 ms).
 * Not a test: it prints, it does not assert.
 * Run: npm run bench:cli [-- --runs N]
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { formatTable, median, ms, REPO_ROOT } from './lib/data.ts';

const AIM_MS = 300;

const { values } = parseArgs({ options: { runs: { type: 'string', default: '11' } } });
const runs = Math.max(1, Number(values.runs) || 11);

const build = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts/build-cli.mjs')], { stdio: 'inherit' });
if (build.status !== 0) throw new Error('scripts/build-cli.mjs failed');

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const subjects: { label: string; command: string; args: string[] }[] = [
  { label: 'node -e 0', command: process.execPath, args: ['-e', '0'] },
  { label: 'iws --help (built bin)', command: process.execPath, args: [join(REPO_ROOT, 'cli/dist/iws.mjs'), '--help'] },
  { label: 'iws --help (source, tsx)', command: process.execPath, args: [join(REPO_ROOT, 'cli/iws.mjs'), '--help'] },
  { label: 'npx iws --help', command: npx, args: ['--no-install', 'iws', '--help'] },
];

function timeOnce(subject: (typeof subjects)[number]): number {
  const started = performance.now();
  const run = spawnSync(subject.command, subject.args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const elapsed = performance.now() - started;
  if (run.status !== 0) throw new Error(`${subject.label} exited ${run.status}: ${run.stderr}`);
  return elapsed;
}

const times = subjects.map(() => [] as number[]);
for (let run = 0; run < runs; run++) subjects.forEach((subject, index) => times[index]!.push(timeOnce(subject)));

const nodeMedian = median(times[0]!);
process.stdout.write(`median and best of ${runs} interleaved runs per command, on this machine now\n\n`);
process.stdout.write(
  `${formatTable(
    ['command', 'median', 'best', 'over node -e 0'],
    subjects.map((subject, index) => [
      subject.label,
      ms(median(times[index]!)),
      ms(Math.min(...times[index]!)),
      index === 0 ? '' : `+${ms(median(times[index]!) - nodeMedian)}`,
    ]),
  )}\n\n`,
);
const bin = median(times[1]!);
process.stdout.write(
  `iws --help (built bin): ${ms(bin)} (aim: within ${AIM_MS} ms: ${bin <= AIM_MS ? 'met' : 'NOT met'}), ` +
    `${ms(bin - nodeMedian)} over Node's own start\n`,
);
