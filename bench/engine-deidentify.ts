/**
 * De-identification throughput on the GE T1 series (196 files): our engine next to a plain copy of the same bytes
 * and next to gdcmanon (GDCM's PS3.15 basic profile, `--dumb` mode clearing the same core attributes), in one run.
 * The measuring lives in bench/lib/deidentify.ts (shared with bench/engine.ts).
 * Run: npx tsx bench/engine-deidentify.ts [--runs N]
 */
import { GE_T1_FOLDER } from './lib/data.ts';
import { measureDeidentification, throughput } from './lib/deidentify.ts';

const runsIndex = process.argv.indexOf('--runs');
const runs = runsIndex >= 0 ? Math.max(1, Number(process.argv[runsIndex + 1]) || 3) : 3;
const measured = measureDeidentification(GE_T1_FOLDER, runs);

function row(label: string, times: number[]): number {
  const { seconds, filesPerSecond, mibPerSecond } = throughput(measured, times);
  process.stdout.write(
    `${label.padEnd(22)} ${seconds.toFixed(3).padStart(7)} s  ${filesPerSecond.toFixed(0).padStart(6)} files/s  ${mibPerSecond.toFixed(1).padStart(7)} MiB/s\n`,
  );
  return seconds;
}

process.stdout.write(
  `${measured.files} files, ${(measured.bytes / 1048576).toFixed(1)} MiB (read + process + write each), median of ${runs} runs\n`,
);
const copy = row('plain copy', measured.plainCopyMs);
const engine = row('iws deidentify', measured.engineMs);
if (measured.gdcmanonMs) {
  const gdcm = row('gdcmanon --dumb', measured.gdcmanonMs);
  process.stdout.write(
    `iws / plain copy: ${(engine / copy).toFixed(2)}x; iws / gdcmanon: ${(engine / gdcm).toFixed(2)}x\n`,
  );
} else {
  process.stdout.write(
    `iws / plain copy: ${(engine / copy).toFixed(2)}x; gdcmanon not installed (apt-get install libgdcm-tools)\n`,
  );
}
