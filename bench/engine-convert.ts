/**
 * Conversion benchmark: the engine's DICOM → NIfTI (dcm2niix WASM, loaded once, .nii.gz) on the shared 196-file GE T1,
 * next to the native Debian dcm2niix (/usr/bin/dcm2niix, -z y with pigz) on the same files in the same run.
 * Run: npx tsx bench/engine-convert.ts [folder] [--runs N]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDcm2niix } from '../shared/dicom/convert-dcm2niix.ts';
import { convertToNifti } from '../shared/dicom/convert.ts';

const NATIVE = '/usr/bin/dcm2niix';
const args = process.argv.slice(2);
const runsIndex = args.indexOf('--runs');
const runs = runsIndex >= 0 ? Math.max(1, Number(args[runsIndex + 1]) || 3) : 3;
const folder = args.find((arg, index) => !arg.startsWith('--') && index !== runsIndex + 1)
  ?? fileURLToPath(new URL('../../shared/data/dicom/ge-t1-ir-spgr/dicom', import.meta.url));

if (!existsSync(NATIVE)) {
  process.stderr.write(`native dcm2niix not found at ${NATIVE} (apt-get install dcm2niix)\n`);
  process.exit(1);
}

const names = readdirSync(folder).filter((name) => statSync(join(folder, name)).isFile()).sort();
// Reading the files is inside each timed engine run, as the native tool reads them inside its own.
const readFiles = (): { name: string; bytes: Uint8Array }[] => names.map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(folder, name))) }));
const megabytes = readFiles().reduce((sum, file) => sum + file.bytes.length, 0) / 1e6;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

let started = performance.now();
await loadDcm2niix();
const loadMs = performance.now() - started;

const wasmMs: number[] = [];
let dims = '';
for (let index = 0; index < runs; index += 1) {
  started = performance.now();
  const outputs = await convertToNifti(readFiles());
  wasmMs.push(performance.now() - started);
  dims = `${outputs.length} output(s), ${(outputs[0]?.nifti.length ?? 0) / 1e6} MB .nii.gz`;
}

const nativeMs: number[] = [];
for (let index = 0; index < runs; index += 1) {
  const out = mkdtempSync(join(tmpdir(), 'bench-dcm2niix-'));
  started = performance.now();
  execFileSync(NATIVE, ['-z', 'y', '-b', 'y', '-f', '%s_%d', '-o', out, folder], { stdio: 'ignore' });
  nativeMs.push(performance.now() - started);
  rmSync(out, { recursive: true, force: true });
}

// `dcm2niix -v` prints its version and exits with status 3.
const versionOutput = spawnSync(NATIVE, ['-v'], { encoding: 'utf8' }).stdout ?? '';
const version = versionOutput.match(/v[\d.]+/)?.[0] ?? 'unknown';
const row = (label: string, ms: number[]): string => `${label.padEnd(44)} median ${median(ms).toFixed(0).padStart(6)} ms   runs ${ms.map((value) => value.toFixed(0)).join(', ')}`;
process.stdout.write([
  `input: ${names.length} files, ${megabytes.toFixed(1)} MB (${folder}); ${runs} runs each; ${dims}`,
  `WASM module load (once per process):          ${loadMs.toFixed(0)} ms`,
  row('engine read + convertToNifti (WASM + gzip)', wasmMs),
  row(`native dcm2niix ${version} (-z y, pigz)`, nativeMs),
  `ratio engine / native (median): ${(median(wasmMs) / median(nativeMs)).toFixed(2)}x (target: within 3x)`,
  '',
].join('\n'));
