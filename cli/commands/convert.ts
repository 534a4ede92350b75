import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { convertToNifti } from '#shared/dicom/convert.ts';

export const usage = `Usage: iws convert <input> <outdir>

Converts DICOM (a file or a folder, searched recursively; .dcm.gz accepted) to NIfTI with dcm2niix (WASM build):
one <series>_<description>.nii.gz + .json sidecar (+ .bval/.bvec for diffusion) per series in <outdir>.
Prints a JSON array, one object per output: seriesInstanceUID, seriesNumber, nifti, sidecar, bval, bvec (paths).
Exit status 1 when no series could be converted.
`;

export async function run(argv: string[]): Promise<number> {
  const { positionals, options } = parseArgs(argv, []);
  const [input, outdir] = positionals;
  if (!input || !outdir || positionals.length > 2 || options.size > 0) {
    process.stderr.write(usage);
    return 2;
  }
  const outputs = await convertToNifti(readInputFiles(input));
  mkdirSync(outdir, { recursive: true });
  const used = new Set<string>();
  const written = outputs.map((output) => {
    let base = output.baseName;
    for (let copy = 2; used.has(base); copy += 1) base = `${output.baseName}_${copy}`;
    used.add(base);
    const path = (extension: string): string => resolve(join(outdir, `${base}${extension}`));
    writeFileSync(path('.nii.gz'), output.nifti);
    writeFileSync(path('.json'), `${JSON.stringify(output.sidecar, null, 2)}\n`);
    if (output.bval !== undefined) writeFileSync(path('.bval'), output.bval);
    if (output.bvec !== undefined) writeFileSync(path('.bvec'), output.bvec);
    return {
      seriesInstanceUID: output.seriesInstanceUID ?? null,
      seriesNumber: output.seriesNumber ?? null,
      nifti: path('.nii.gz'),
      sidecar: path('.json'),
      bval: output.bval !== undefined ? path('.bval') : null,
      bvec: output.bvec !== undefined ? path('.bvec') : null,
    };
  });
  process.stdout.write(`${JSON.stringify(written, null, 2)}\n`);
  if (written.length === 0) {
    process.stderr.write('iws convert: no DICOM series could be converted\n');
    return 1;
  }
  return 0;
}

/**
 * Reads a DICOM file or every file under a folder (hidden files and folders skipped) as conversion input, named by
 * path relative to the input. Non-DICOM files are passed through: the engine skips what does not parse.
 */
export function readInputFiles(input: string): { name: string; bytes: Uint8Array }[] {
  const stats = statSync(input, { throwIfNoEntry: false });
  if (!stats) throw new Error(`input not found: ${input}`);
  if (stats.isFile()) return [{ name: basename(input), bytes: new Uint8Array(readFileSync(input)) }];
  const files: { name: string; bytes: Uint8Array }[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir).sort()) {
      if (entry.startsWith('.')) continue;
      const path = join(dir, entry);
      const entryStats = statSync(path);
      if (entryStats.isDirectory()) walk(path);
      else if (entryStats.isFile())
        files.push({ name: relative(input, path), bytes: new Uint8Array(readFileSync(path)) });
    }
  };
  walk(input);
  return files;
}

/** Splits argv into positionals and `--name value` / `--flag` options (only the names in `valued` take a value). */
export function parseArgs(
  argv: string[],
  valued: string[],
): { positionals: string[]; options: Map<string, string | true> } {
  const positionals: string[] = [];
  const options = new Map<string, string | true>();
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index]!;
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s) as [string, string | undefined];
    if (!valued.includes(name)) {
      options.set(name, true);
    } else if (inline !== undefined) {
      options.set(name, inline);
    } else {
      const value = argv[index + 1];
      if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value`);
      options.set(name, value);
      index += 1;
    }
  }
  return { positionals, options };
}
