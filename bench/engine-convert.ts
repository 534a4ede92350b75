/**
 * Conversion benchmark: the engine's DICOM → NIfTI (dcm2niix WASM, loaded once, .nii.gz) on the shared 196-file GE T1,
 * next to the native Debian dcm2niix (/usr/bin/dcm2niix, -z y with pigz) on the same files in the same run.
 * The measuring lives in bench/lib/convert.ts (shared with bench/engine.ts and bench/twin-upload.ts).
 * Run: npx tsx bench/engine-convert.ts [folder] [--runs N]
 */
import { GE_T1_FOLDER, median, NATIVE_DCM2NIIX, toolPresent } from './lib/data.ts';
import { measureConversion } from './lib/convert.ts';

const args = process.argv.slice(2);
const runsIndex = args.indexOf('--runs');
const runs = runsIndex >= 0 ? Math.max(1, Number(args[runsIndex + 1]) || 3) : 3;
const folder = args.find((arg, index) => !arg.startsWith('--') && index !== runsIndex + 1) ?? GE_T1_FOLDER;

if (!toolPresent(NATIVE_DCM2NIIX)) {
  process.stderr.write(`native dcm2niix not found at ${NATIVE_DCM2NIIX} (apt-get install dcm2niix)\n`);
  process.exit(1);
}

const measured = await measureConversion(folder, runs);
const nativeMs = measured.nativeMs ?? [];
const first = measured.outputs[0];
const dims = `${measured.outputs.length} output(s), ${(first?.niftiBytes ?? 0) / 1e6} MB .nii.gz`;
const row = (label: string, ms: number[]): string =>
  `${label.padEnd(44)} median ${median(ms).toFixed(0).padStart(6)} ms   runs ${ms.map((value) => value.toFixed(0)).join(', ')}`;
process.stdout.write(
  [
    `input: ${measured.files} files, ${(measured.bytes / 1e6).toFixed(1)} MB (${folder}); ${runs} runs each; ${dims}`,
    `WASM module load (once per process):          ${measured.wasmLoadMs.toFixed(0)} ms`,
    row('engine read + convertToNifti (WASM + gzip)', measured.wasmMs),
    row(`native dcm2niix ${measured.nativeVersion} (-z y, pigz)`, nativeMs),
    `ratio engine / native (median): ${(median(measured.wasmMs) / median(nativeMs)).toFixed(2)}x (target: within 3x)`,
    '',
  ].join('\n'),
);
