/**
 * De-identification throughput on the GE T1 series (196 files): our engine next to a plain copy of the same bytes
 * and next to gdcmanon (GDCM's PS3.15 basic profile, `--dumb` mode clearing the same core attributes), in one run.
 * Run: npx tsx bench/engine-deidentify.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { deidentifyDicom } from '../shared/dicom/deidentify/index.ts';
import { AnonymizationOptionsSchema } from '../shared/schemas/api/datasets.ts';

const SOURCE = resolve(process.cwd(), '../shared/data/dicom/ge-t1-ir-spgr/dicom');
const files = readdirSync(SOURCE).sort().map((name) => join(SOURCE, name)).filter((path) => statSync(path).isFile());
const totalBytes = files.reduce((sum, path) => sum + statSync(path).size, 0);
const work = mkdtempSync(join(tmpdir(), 'iws-bench-'));
const context = { secret: 'bench', hospitalId: 'bench', options: AnonymizationOptionsSchema.parse({}) };

function timed(label: string, body: (out: string) => void): number {
  const out = join(work, label);
  mkdirSync(out, { recursive: true });
  const start = performance.now();
  body(out);
  const seconds = (performance.now() - start) / 1000;
  process.stdout.write(`${label.padEnd(22)} ${seconds.toFixed(3).padStart(7)} s  ${(files.length / seconds).toFixed(0).padStart(6)} files/s  ${(totalBytes / 1048576 / seconds).toFixed(1).padStart(7)} MiB/s\n`);
  return seconds;
}

try {
  process.stdout.write(`${files.length} files, ${(totalBytes / 1048576).toFixed(1)} MiB (read + process + write each)\n`);
  const copy = timed('plain copy', (out) => {
    for (const path of files) writeFileSync(join(out, path.split('/').pop()!), new Uint8Array(readFileSync(path)));
  });
  const engine = timed('iws deidentify', (out) => {
    for (const path of files) writeFileSync(join(out, path.split('/').pop()!), deidentifyDicom(new Uint8Array(readFileSync(path)), context).bytes);
  });
  const gdcm = timed('gdcmanon --dumb', (out) => {
    execFileSync('gdcmanon', ['--dumb', '--continue', '--recursive', '--empty', '0010,0010', '--empty', '0010,0020', '--remove', '0008,0080',
      '-i', SOURCE, '-o', out], { stdio: 'pipe' });
  });
  process.stdout.write(`iws / plain copy: ${(engine / copy).toFixed(2)}x; iws / gdcmanon: ${(engine / gdcm).toFixed(2)}x\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
