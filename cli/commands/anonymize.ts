import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEIDENTIFICATION_PROFILE, deidentifyDicom, type DeidentifySummary } from '#shared/dicom/deidentify/index.ts';
import { DicomParseError } from '#shared/dicom/parse.ts';
import {
  anonymizationFromFlags,
  DEIDENTIFICATION_FLAGS,
  secretFromEnvironment,
} from '#cli/lib/deidentification-flags.ts';

export const usage = `Usage: iws anonymize <file|folder> <outdir> [options]

De-identifies DICOM with the PS3.15 Annex E Basic Profile (${DEIDENTIFICATION_PROFILE.edition}), Clean Descriptors and
Retain Safe Private options. Mirrors the input tree under <outdir> (a .dcm.gz input is written as plain .dcm).
Prints a JSON summary; exits 1 if any file failed, one line per failed file on stderr.

Options:
  --retain-physician     keep physician and operator names
  --retain-institution   Retain Institution Identity option
  --retain-uids          Retain UIDs option
  --retain-dates         Retain Longitudinal Temporal Information (modified dates: a per-patient shift)
  --keep-private         keep the safe private attributes only (the default; see --keep-all-private)
  --keep-all-private     keep every private attribute, not only the safe ones
  --remove-private       remove every private attribute (Basic Profile without Retain Safe Private)
  --hospital <id>        hospital the keyed UIDs belong to (default "cli")

Environment:
  IWS_SECRET             key for UID replacement and date shifts; without it, this machine's own random secret,
                         made once and kept in $XDG_CONFIG_HOME/iws/secret (else ~/.config/iws/secret)
`;

function listInputs(root: string): string[] {
  if (!statSync(root).isDirectory()) return [root];
  return readdirSync(root)
    .sort()
    .flatMap((name) => listInputs(join(root, name)));
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: DEIDENTIFICATION_FLAGS,
  });
  const [input, outdir] = positionals;
  if (!input || !outdir) {
    process.stderr.write(usage);
    return 2;
  }
  const secret = secretFromEnvironment('anonymize');
  const options = anonymizationFromFlags(values);
  const root = resolve(input);
  const isFolder = statSync(root).isDirectory();
  const totals: DeidentifySummary = { removed: 0, emptied: 0, replaced: 0, uidsReplaced: 0, kept: 0 };
  const failed: { file: string; error: string }[] = [];
  const flagged: { file: string; burnedInAnnotation: boolean; secondaryCapture: boolean }[] = [];
  let written = 0;
  for (const file of listInputs(root)) {
    const name = isFolder ? relative(root, file) : file.split(/[\\/]/).pop()!;
    try {
      const result = deidentifyDicom(new Uint8Array(readFileSync(file)), {
        secret,
        hospitalId: values.hospital!,
        options,
      });
      const target = join(outdir, name.replace(/\.gz$/i, ''));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, result.bytes);
      written += 1;
      for (const key of Object.keys(totals) as (keyof DeidentifySummary)[]) totals[key] += result.summary[key];
      if (result.burnedInAnnotation || result.secondaryCapture) {
        flagged.push({
          file: name,
          burnedInAnnotation: result.burnedInAnnotation,
          secondaryCapture: result.secondaryCapture,
        });
      }
    } catch (error) {
      const message = error instanceof DicomParseError ? error.message : 'DICOM parsing failed';
      failed.push({ file: name, error: message });
      process.stderr.write(`${name}: ${message}\n`);
    }
  }
  const summary = {
    profile: { standard: DEIDENTIFICATION_PROFILE.standard, edition: DEIDENTIFICATION_PROFILE.edition, options },
    files: written + failed.length,
    written,
    failed: failed.length,
    attributes: totals,
    flagged,
    failures: failed,
  };
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  return failed.length > 0 ? 1 : 0;
}
