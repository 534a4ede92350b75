import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, relative } from 'node:path';
import {
  acquisitionFromDicom,
  acquisitionFromSidecar,
  acquisitionsFromDicomJson,
  classifySeries,
  type SeriesAcquisition,
  type SeriesClassification,
} from '#shared/dicom/classify/index.ts';
import { parseDicom } from '#shared/dicom/parse.ts';

export const usage = `Usage: iws classify <input> [--ignore-descriptions]

Classifies each series as T1, T2, FLAIR, DTI, T1_CONTRAST, DWI, SWI or OTHER, with a confidence (0-1),
a BIDS datatype/suffix and the reasons.

<input> is one of:
  a DICOM file or a folder of DICOM files (series grouped by SeriesInstanceUID; .dcm.gz read too)
  a DICOM JSON file (PS3.18 Annex F: an array of instances)
  a BIDS / dcm2niix sidecar .json (its .bval/.bvec beside it are read when present)
  a folder of such sidecars

Options:
  --ignore-descriptions   classify from acquisition parameters alone (SeriesDescription/ProtocolName unused)

Prints a JSON array, one object per series: SeriesInstanceUID (or path for sidecars), classifiedType,
confidence, bids {datatype, suffix}, reasons.
`;

type Output = ({ SeriesInstanceUID: string } | { path: string }) &
  Pick<SeriesClassification, 'classifiedType' | 'confidence' | 'bids' | 'reasons'>;

function walk(path: string): string[] {
  if (statSync(path).isFile()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith('.'))
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => walk(join(path, entry.name)));
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/** A sidecar's .bval/.bvec share its name: sub-01_dwi.json → sub-01_dwi.bval. */
function beside(path: string, extension: string): string | undefined {
  const candidate = join(dirname(path), `${basename(path, extname(path))}${extension}`);
  return existsSync(candidate) ? readFileSync(candidate, 'utf8') : undefined;
}

function output(id: { SeriesInstanceUID: string } | { path: string }, result: SeriesClassification): Output {
  return {
    ...id,
    classifiedType: result.classifiedType,
    confidence: result.confidence,
    bids: result.bids,
    reasons: result.reasons,
  };
}

export async function run(argv: string[]): Promise<number> {
  const ignoreDescriptions = argv.includes('--ignore-descriptions');
  const unknown = argv.filter((arg) => arg.startsWith('--') && arg !== '--ignore-descriptions');
  const positional = argv.filter((arg) => !arg.startsWith('--'));
  if (unknown.length > 0 || positional.length !== 1) {
    process.stderr.write(unknown.length > 0 ? `iws classify: unknown option ${unknown[0]}\n\n${usage}` : usage);
    return 2;
  }
  const input = positional[0] as string;
  if (!existsSync(input)) {
    process.stderr.write(`iws classify: ${input}: no such file or folder\n`);
    return 2;
  }
  const options = { ignoreDescriptions };
  const results: Output[] = [];
  const dicomBySeries = new Map<string, Uint8Array[]>();
  let failures = 0;

  for (const file of walk(input)) {
    const shown = statSync(input).isFile() ? file : relative(input, file) || basename(file);
    if (extname(file).toLowerCase() === '.json') {
      const json = readJson(file);
      if (Array.isArray(json)) {
        for (const [uid, acq] of acquisitionsFromDicomJson(json))
          results.push(output({ SeriesInstanceUID: uid }, classifySeries(acq, options)));
      } else if (json && typeof json === 'object') {
        const acq: SeriesAcquisition = acquisitionFromSidecar(
          json as Record<string, unknown>,
          beside(file, '.bval'),
          beside(file, '.bvec'),
        );
        results.push(output({ path: file }, classifySeries(acq, options)));
      } else {
        process.stderr.write(`${shown}: not a JSON sidecar or DICOM JSON array\n`);
        failures += 1;
      }
      continue;
    }
    if (
      ['.bval', '.bvec', '.nii', '.gz', '.tsv', '.txt', '.md'].includes(extname(file).toLowerCase()) &&
      !file.toLowerCase().endsWith('.dcm.gz')
    )
      continue;
    const bytes = new Uint8Array(readFileSync(file));
    try {
      const uid = parseDicom(bytes).dataSet.string('x0020000e')?.trim() || `no-uid:${dirname(file)}`;
      const group = dicomBySeries.get(uid) ?? [];
      group.push(bytes);
      dicomBySeries.set(uid, group);
    } catch (error) {
      process.stderr.write(`${shown}: ${error instanceof Error ? error.message : 'DICOM parsing failed'}\n`);
      failures += 1;
    }
  }
  for (const [uid, files] of dicomBySeries) {
    results.push(output({ SeriesInstanceUID: uid }, classifySeries(acquisitionFromDicom(files), options)));
  }
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  return results.length === 0 || (failures > 0 && statSync(input).isFile()) ? 1 : 0;
}
