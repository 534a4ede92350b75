import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, relative } from 'node:path';
import {
  acquisitionFromDicom,
  acquisitionFromSidecar,
  acquisitionsFromDicomJson,
  classifySeries,
  isLowConfidence,
  reviewHeaders,
  reviewStudy,
  type ClassifyOptions,
  type SeriesAcquisition,
  type SeriesClassification,
} from '#shared/dicom/classify/index.ts';
import { DEFAULT_MODEL, thresholdFor } from '#shared/dicom/classify/model.ts';
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
confidence, review (true when a person should check the answer) and reviewReason, bids {datatype, suffix},
reasons. A series is sent to review below the fitted confidence threshold, by the study review (the series of
one study read together: DICOM by StudyInstanceUID, sidecars by their sub-/ses- folder), or by the header review (a
header fact that contradicts the answer, such as a flip angle of 2° or less).
`;

type Output = ({ SeriesInstanceUID: string } | { path: string }) &
  Pick<SeriesClassification, 'classifiedType' | 'confidence' | 'bids' | 'reasons'> & {
    review: boolean;
    reviewReason: string;
  };

/** A classified series with the study it belongs to and its acquisition, for the study review. */
type Classified = {
  id: { SeriesInstanceUID: string } | { path: string };
  study: string;
  acquisition: SeriesAcquisition;
  result: SeriesClassification;
};

/** The study of a sidecar: its path up to the subject folder, or the session folder where there is one. */
function sidecarStudy(path: string): string {
  return /^(.*?sub-[^/\\]+[/\\](?:ses-[^/\\]+[/\\])?)/.exec(path)?.[1] ?? dirname(path);
}

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

/**
 * The review flag of each series (docs/classification.md#confidence-and-the-review-flag): below the fitted threshold,
 * or asked about by the study review of its study or by the header review of its headers; the reason says which.
 */
function withReview(series: Classified[], options: ClassifyOptions): Output[] {
  const studyReasons = new Map<Classified, string>();
  const studies = new Map<string, Classified[]>();
  for (const item of series) studies.set(item.study, [...(studies.get(item.study) ?? []), item]);
  for (const list of studies.values()) {
    const reasons = reviewStudy(
      list.map((item) => ({
        classifiedType: item.result.classifiedType,
        suffix: item.result.bids.suffix,
        acquisition: item.acquisition,
      })),
    );
    list.forEach((item, index) => {
      const reason = reasons[index];
      if (reason !== undefined) studyReasons.set(item, reason);
    });
  }
  const threshold = thresholdFor(DEFAULT_MODEL, options);
  return series.map((item) => {
    const { result } = item;
    const low = isLowConfidence(result, options);
    // The study review's question, else the header review's (header-review.ts): both flag whatever the confidence.
    const question = studyReasons.get(item) ?? reviewHeaders(item.acquisition, result.classifiedType);
    const limit = `the review threshold ${threshold}${options.ignoreDescriptions ? ' (physics only)' : ''}`;
    // The question first (it says what to check), then the confidence against the threshold.
    const confidence = `confidence ${result.confidence} is ${low ? 'below' : 'at or above'} ${limit}`;
    const reviewReason = question === undefined ? confidence : low ? `${question} (${confidence})` : question;
    return {
      ...item.id,
      classifiedType: result.classifiedType,
      confidence: result.confidence,
      review: low || question !== undefined,
      reviewReason,
      bids: result.bids,
      reasons: question !== undefined ? [...result.reasons, question] : result.reasons,
    };
  });
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
  const results: Classified[] = [];
  const dicomBySeries = new Map<string, Uint8Array[]>();
  const studyOfSeries = new Map<string, string>();
  let failures = 0;

  for (const file of walk(input)) {
    const shown = statSync(input).isFile() ? file : relative(input, file) || basename(file);
    if (extname(file).toLowerCase() === '.json') {
      const json = readJson(file);
      if (Array.isArray(json)) {
        // The instances of one DICOM JSON file are read as one study.
        for (const [uid, acq] of acquisitionsFromDicomJson(json))
          results.push({
            id: { SeriesInstanceUID: uid },
            study: file,
            acquisition: acq,
            result: classifySeries(acq, options),
          });
      } else if (json && typeof json === 'object') {
        const acq: SeriesAcquisition = acquisitionFromSidecar(
          json as Record<string, unknown>,
          beside(file, '.bval'),
          beside(file, '.bvec'),
        );
        results.push({
          id: { path: file },
          study: sidecarStudy(file),
          acquisition: acq,
          result: classifySeries(acq, options),
        });
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
      const dataSet = parseDicom(bytes).dataSet;
      const uid = dataSet.string('x0020000e')?.trim() || `no-uid:${dirname(file)}`;
      studyOfSeries.set(uid, dataSet.string('x0020000d')?.trim() || dirname(file));
      const group = dicomBySeries.get(uid) ?? [];
      group.push(bytes);
      dicomBySeries.set(uid, group);
    } catch (error) {
      process.stderr.write(`${shown}: ${error instanceof Error ? error.message : 'DICOM parsing failed'}\n`);
      failures += 1;
    }
  }
  for (const [uid, files] of dicomBySeries) {
    const acquisition = acquisitionFromDicom(files);
    results.push({
      id: { SeriesInstanceUID: uid },
      study: studyOfSeries.get(uid) ?? uid,
      acquisition,
      result: classifySeries(acquisition, options),
    });
  }
  process.stdout.write(`${JSON.stringify(withReview(results, options), null, 2)}\n`);
  return results.length === 0 || (failures > 0 && statSync(input).isFile()) ? 1 : 0;
}
