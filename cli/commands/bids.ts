import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { acquisitionFromSidecar, classifySeries } from '#shared/dicom/classify/index.ts';
import { BIDS_VERSION, buildBidsDataset, toBidsLabel, zipBidsDataset } from '#shared/dicom/bids/bids-dataset.ts';
import { convertToNifti } from '#shared/dicom/convert.ts';
import { parseArgs, readInputFiles } from './convert.ts';

export const usage = `Usage: iws bids <input> <out.zip> [--subject ID] [--session ID] [--name TEXT]

Converts DICOM (a file or a folder, searched recursively) to a BIDS raw dataset (BIDS ${BIDS_VERSION}) and writes it as a ZIP:
NIfTI + JSON sidecars (+ .bval/.bvec), dataset_description.json, participants.tsv, README, CHANGES.
Each series' datatype and suffix come from the series classifier (acquisition physics and descriptions).
Series whose BIDS type needs metadata DICOM does not carry (ASL, PET, field maps, OTHER) are left out and listed.

Options:
  --subject ID   subject label, letters and digits (default 01)
  --session ID   session label, letters and digits (default: no session level)
  --name TEXT    dataset name in dataset_description.json

Prints a JSON summary: zip, subject, session, series (path, datatype, suffix, classifiedType, confidence), skipped.
Exit status 1 when no series could be written.
`;

export async function run(argv: string[]): Promise<number> {
  const { positionals, options } = parseArgs(argv, ['subject', 'session', 'name']);
  const [input, out] = positionals;
  const unknown = [...options.keys()].filter((name) => !['subject', 'session', 'name'].includes(name));
  if (!input || !out || positionals.length > 2 || unknown.length > 0) {
    process.stderr.write(usage);
    return 2;
  }
  const subject = String(options.get('subject') ?? '01');
  const session = options.has('session') ? String(options.get('session')) : undefined;
  if (!toBidsLabel(subject) || (session !== undefined && !toBidsLabel(session))) {
    process.stderr.write('iws bids: --subject and --session need letters or digits\n');
    return 2;
  }

  const outputs = await convertToNifti(readInputFiles(input));
  const classified = outputs.map((output) => {
    const classification = classifySeries(acquisitionFromSidecar(output.sidecar, output.bval, output.bvec));
    return { output, bids: classification.bids, classification };
  });
  const dataset = buildBidsDataset(classified, {
    subject,
    ...(session !== undefined ? { session } : {}),
    ...(typeof options.get('name') === 'string' ? { name: String(options.get('name')) } : {}),
  });
  const zip = await zipBidsDataset(dataset);
  mkdirSync(dirname(resolve(out)), { recursive: true });
  writeFileSync(out, zip);

  const byPath = new Map(dataset.entries.map((entry) => [entry.path, entry]));
  const summary = {
    zip: resolve(out),
    subject: toBidsLabel(subject),
    session: session !== undefined ? toBidsLabel(session) : null,
    series: [...byPath.values()].map((entry) => {
      const source = classified.find(
        (item) =>
          item.output.seriesInstanceUID === entry.seriesInstanceUID && item.output.seriesNumber === entry.seriesNumber,
      );
      return {
        path: entry.path,
        seriesInstanceUID: entry.seriesInstanceUID ?? null,
        seriesNumber: entry.seriesNumber ?? null,
        datatype: entry.datatype,
        suffix: entry.suffix,
        classifiedType: source?.classification.classifiedType ?? null,
        confidence: source?.classification.confidence ?? null,
      };
    }),
    skipped: dataset.skipped,
  };
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  if (dataset.entries.length === 0) {
    process.stderr.write('iws bids: no series could be written as BIDS\n');
    return 1;
  }
  return 0;
}
