import Papa from 'papaparse';
import { CLASSIFIED_TYPES } from '#shared/vocabulary/datasets.ts';
import { canonicalSuffix } from '#shared/dicom/classify/bids-labels.ts';
import { classifySeries } from '#shared/dicom/classify/classify.ts';
import { acquisitionFromSidecar } from '#shared/dicom/classify/from-sidecar.ts';
import { reviewHeaders } from '#shared/dicom/classify/header-review.ts';
import { reviewStudy } from '#shared/dicom/classify/study.ts';
import type {
  ClassifiedType,
  ClassifyOptions,
  SeriesAcquisition,
  SeriesClassification,
} from '#shared/dicom/classify/types.ts';

/**
 * Measuring the classifier on labelled dcm2niix sidecars (the shared data's labelled sets, listed in dev-sets.ts with
 * the lockbox); leave-one-source-out evaluation is in loso.ts.
 *
 * Definitions (the accuracy test and bench/classify.ts both use these):
 * - Protocol: one distinct combination of the source and every acquisition column of the CSV (scanner, TR, TE, TI, flip, descriptions,
 *   sequence fields, image type, acquisition type, slice thickness, contrast agent, b-values and direction count).
 *   Rows that repeat a protocol (subjects, runs) count once: a protocol weighs 1, whatever its row count.
 * - Evaluable protocol: one whose sidecar records at least two acquisition parameters among TR, TE, TI, flip angle,
 *   sequence identity (ScanningSequence / SequenceName / PulseSequenceDetails / PulseSequenceType) and diffusion encoding.
 *   Sidecars with fewer (e.g. only "EchoTime", or nothing at all) carry no physics to classify by; they are counted and
 *   reported as excluded, never silently dropped. The same protocols are used with and without descriptions.
 * - Per-class accuracy (recall): among evaluable protocols labelled C, the share classified C. A protocol whose rows carry
 *   different labels counts once per label.
 * - target_class SWI_like(...) is scored as SWI; DWI_or_DTI (a diffusion run its dataset does not tell apart) is
 *   labelled DTI and a DWI answer counts as right too (Protocol.accepts).
 */
export type LabelledRow = Record<string, string>;

export type Protocol = {
  key: string;
  label: ClassifiedType;
  /** The answers scored as right: the label, and DWI beside DTI for a DWI_or_DTI label. */
  accepts: ClassifiedType[];
  /** The label's BIDS datatype and suffix in the classifier's vocabulary; suffix undefined when outside it. */
  labelBids: { datatype: string; suffix?: string };
  /** The BIDS entities of the labelled file's name (acq, dir, echo, part, mt, flip, ce, ...), as written there. */
  labelEntities: Record<string, string>;
  source: string;
  rows: number;
  examplePath: string;
  acquisition: SeriesAcquisition;
  evaluable: boolean;
  /** The study (studyOf) of each of its rows, in row order: a study holding two runs of the protocol lists it twice. */
  studies: string[];
};

export type ClassScore = { total: number; correct: number; accuracy: number };

export type Evaluation = {
  protocols: number;
  evaluable: number;
  excluded: { label: ClassifiedType; rows: number; examplePath: string }[];
  perClass: Record<ClassifiedType, ClassScore>;
  /** confusion[truth][predicted] in protocols. */
  confusion: Record<ClassifiedType, Record<ClassifiedType, number>>;
  overall: ClassScore;
  /** Mean confidence and accuracy per confidence bin (reliability), and the expected calibration error. */
  calibration: {
    bins: { from: number; to: number; count: number; meanConfidence: number; accuracy: number }[];
    ece: number;
  };
  errors: { protocol: Protocol; result: SeriesClassification }[];
};

/**
 * A column the CSVs do not have, filled by withSeriesContext: the echo times (s, space-separated) of the multi-echo
 * acquisition a row's file is one echo of.
 */
const ECHO_TIMES = 'EchoTimes';

const ACQUISITION_COLUMNS = [
  'Manufacturer',
  'ManufacturersModelName',
  'MagneticFieldStrength',
  'RepetitionTime',
  'EchoTime',
  'InversionTime',
  'FlipAngle',
  'SeriesDescription',
  'ProtocolName',
  'ScanningSequence',
  'SequenceVariant',
  'ScanOptions',
  'SequenceName',
  'PulseSequenceDetails',
  'ImageType',
  'MRAcquisitionType',
  'PulseSequenceType',
  'SliceThickness',
  'ContrastBolusIngredient',
  'n_diffusion_dirs',
  'bvals',
] as const;

export function parseLabelledCsv(csv: string): LabelledRow[] {
  const parsed = Papa.parse<LabelledRow>(csv, { header: true, skipEmptyLines: true });
  return parsed.data;
}

export function labelOf(targetClass: string): ClassifiedType {
  if (targetClass.startsWith('SWI')) return 'SWI';
  if (targetClass === 'DWI_or_DTI') return 'DTI';
  if ((CLASSIFIED_TYPES as readonly string[]).includes(targetClass)) return targetClass as ClassifiedType;
  throw new Error(`unknown target_class "${targetClass}"`);
}

function imageType(value: string): string[] | undefined {
  if (!value) return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.map(String) : [String(parsed)];
  } catch {
    return value.split(/[\\_]+/);
  }
}

/** A CSV row as the classifier sees a sidecar: same fields, b-values and direction count from the label columns. */
export function acquisitionFromRow(row: LabelledRow): SeriesAcquisition {
  const sidecar: Record<string, unknown> = {};
  for (const column of ACQUISITION_COLUMNS) if (row[column]) sidecar[column] = row[column];
  sidecar.ImageType = imageType(row.ImageType ?? '');
  const acq = acquisitionFromSidecar(sidecar);
  const bValues = (row.bvals ?? '').split(/\s+/).filter(Boolean).map(Number).filter(Number.isFinite);
  if (bValues.length > 0) acq.bValues = bValues;
  const echoTimes = (row[ECHO_TIMES] ?? '').split(/\s+/).filter(Boolean).map(Number).filter(Number.isFinite);
  if (echoTimes.length > 1) acq.echoTimesMs = echoTimes.map((value) => value * 1000);
  const directions = Number(row.n_diffusion_dirs);
  if (row.n_diffusion_dirs && Number.isFinite(directions)) acq.diffusionDirections = directions;
  return acq;
}

function isEvaluable(row: LabelledRow): boolean {
  const present = (column: string) => Boolean(row[column]?.trim());
  const parameters = [
    present('RepetitionTime'),
    present('EchoTime'),
    present('InversionTime'),
    present('FlipAngle'),
    present('ScanningSequence') ||
      present('SequenceName') ||
      present('PulseSequenceDetails') ||
      present('PulseSequenceType'),
    present('n_diffusion_dirs') || present('bvals'),
  ];
  return parameters.filter(Boolean).length >= 2;
}

/**
 * The study a labelled file belongs to: its source and its path up to the subject folder, or the session folder where
 * there is one (`sub-BO22/`, `ds000117/sub-04/ses-mri/`). The file name and its entities are never read.
 */
export function studyOf(row: LabelledRow): string {
  const path = row.path ?? '';
  const folder = /^(.*?sub-[^/]+\/(?:ses-[^/]+\/)?)/.exec(path)?.[1] ?? path.slice(0, path.lastIndexOf('/') + 1);
  return `${row.source ?? ''}/${folder}`;
}

/**
 * Puts back what one DICOM series holds and dcm2niix splits into files: the echoes of a multi-echo acquisition. Files of
 * one study identical in every acquisition column but EchoTime are the echoes of one series (EchoNumbers (0018,0086)),
 * so each gets the series' echo times (EchoTimes) when there are several. Never reads file names or labels.
 */
export function withSeriesContext(rows: LabelledRow[]): LabelledRow[] {
  const columns = ACQUISITION_COLUMNS.filter((column) => column !== 'EchoTime');
  const series = new Map<string, Set<string>>();
  const keyOf = (row: LabelledRow) => JSON.stringify([studyOf(row), ...columns.map((column) => row[column] ?? '')]);
  for (const row of rows) {
    const echo = (row.EchoTime ?? '').trim();
    if (!echo) continue;
    const key = keyOf(row);
    (series.get(key) ?? series.set(key, new Set()).get(key)!).add(echo);
  }
  return rows.map((row) => {
    const echoes = series.get(keyOf(row));
    if (!echoes || echoes.size < 2) return row;
    const sorted = [...echoes].sort((a, b) => Number(a) - Number(b));
    return { ...row, [ECHO_TIMES]: sorted.join(' ') };
  });
}

/** Groups rows into unique (protocol, label) pairs, each row with its series context (withSeriesContext). */
export function uniqueProtocols(rawRows: LabelledRow[]): Protocol[] {
  const byKey = new Map<string, Protocol>();
  for (const row of withSeriesContext(rawRows)) {
    const label = labelOf(row.target_class ?? '');
    const key = JSON.stringify([row.source ?? '', ...ACQUISITION_COLUMNS.map((column) => row[column] ?? '')]);
    const id = `${key}|${label}`;
    const existing = byKey.get(id);
    if (existing) {
      existing.rows += 1;
      existing.studies.push(studyOf(row));
      // The echo set is context, not a column of the protocol: where the files of one protocol sit in sets of several
      // sizes (an echo missing from some sessions), the fullest set stands for the acquisition.
      const echoes = acquisitionFromRow(row).echoTimesMs;
      if (echoes && echoes.length > (existing.acquisition.echoTimesMs?.length ?? 0))
        existing.acquisition.echoTimesMs = echoes;
      continue;
    }
    byKey.set(id, {
      key,
      label,
      accepts: row.target_class === 'DWI_or_DTI' ? ['DTI', 'DWI'] : [label],
      // A T2-FLAIR filed as _T2w (its class label already corrected to FLAIR) is, in BIDS, a FLAIR.
      labelBids: {
        datatype: row.datatype ?? '',
        suffix: label === 'FLAIR' && row.suffix === 'T2w' ? 'FLAIR' : canonicalSuffix(row.suffix ?? ''),
      },
      labelEntities: Object.fromEntries(
        (row.entities ?? '')
          .split('_')
          .filter((pair) => pair.includes('-'))
          .map((pair) => [pair.slice(0, pair.indexOf('-')), pair.slice(pair.indexOf('-') + 1)]),
      ),
      source: row.source ?? '',
      rows: 1,
      examplePath: row.path ?? '',
      acquisition: acquisitionFromRow(row),
      evaluable: isEvaluable(row),
      studies: [studyOf(row)],
    });
  }
  return [...byKey.values()];
}

/**
 * The study review (study.ts reviewStudy) over labelled protocols: each study is rebuilt from its rows (studyOf), every
 * row a series classified as its protocol is, and reviewed. A protocol sits in several studies; it counts as flagged
 * by the study review when it is flagged in more than half of the studies it occurs in (two runs of it in one study
 * count as one occurrence, flagged when either is). A protocol the study review leaves alone is flagged when the header
 * review (header-review.ts reviewHeaders) asks about it. Uses the answers only, never the labels; the answer does not
 * depend on fitted parameters, so the result holds in every leave-one-source-out fold.
 */
export function reviewByStudy(protocols: Protocol[], options: ClassifyOptions = {}): Map<Protocol, string> {
  const studies = new Map<string, Protocol[]>();
  for (const protocol of protocols)
    for (const study of protocol.studies) {
      const list = studies.get(study) ?? [];
      list.push(protocol);
      studies.set(study, list);
    }
  const answer = new Map(protocols.map((protocol) => [protocol, classifySeries(protocol.acquisition, options)]));
  const flagged = new Map<Protocol, { studies: Set<string>; reason: string }>();
  for (const [study, list] of studies) {
    const reasons = reviewStudy(
      list.map((protocol) => ({
        classifiedType: answer.get(protocol)!.classifiedType,
        suffix: answer.get(protocol)!.bids.suffix,
        acquisition: protocol.acquisition,
      })),
    );
    list.forEach((protocol, index) => {
      const reason = reasons[index];
      if (reason === undefined) return;
      const entry = flagged.get(protocol) ?? { studies: new Set<string>(), reason };
      entry.studies.add(study);
      flagged.set(protocol, entry);
    });
  }
  const reviewed = new Map(
    [...flagged]
      .filter(([protocol, entry]) => entry.studies.size * 2 > new Set(protocol.studies).size)
      .map(([protocol, entry]) => [protocol, entry.reason]),
  );
  // The header review (header-review.ts) reads one series: it flags a protocol in every study it occurs in.
  for (const protocol of protocols) {
    const reason = reviewed.has(protocol)
      ? undefined
      : reviewHeaders(protocol.acquisition, answer.get(protocol)!.classifiedType);
    if (reason !== undefined) reviewed.set(protocol, reason);
  }
  return reviewed;
}

const emptyRecord = <T>(make: () => T) =>
  Object.fromEntries(CLASSIFIED_TYPES.map((type) => [type, make()])) as Record<ClassifiedType, T>;

/** Classifies every evaluable protocol and scores it (definitions above). */
export function evaluateProtocols(protocols: Protocol[], options: ClassifyOptions = {}): Evaluation {
  const perClass = emptyRecord<ClassScore>(() => ({ total: 0, correct: 0, accuracy: Number.NaN }));
  const confusion = emptyRecord(() => emptyRecord(() => 0));
  const errors: Evaluation['errors'] = [];
  const confidences: { confidence: number; correct: boolean }[] = [];
  const evaluable = protocols.filter((protocol) => protocol.evaluable);
  for (const protocol of evaluable) {
    const result = classifySeries(protocol.acquisition, options);
    const correct = protocol.accepts.includes(result.classifiedType);
    perClass[protocol.label].total += 1;
    if (correct) perClass[protocol.label].correct += 1;
    else errors.push({ protocol, result });
    confusion[correct ? result.classifiedType : protocol.label][result.classifiedType] += 1;
    confidences.push({ confidence: result.confidence, correct });
  }
  for (const type of CLASSIFIED_TYPES) {
    const score = perClass[type];
    score.accuracy = score.total > 0 ? score.correct / score.total : Number.NaN;
  }
  const correct = evaluable.length - errors.length;
  const edges = [0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0001];
  const bins = edges.slice(0, -1).map((from, i) => {
    const to = edges[i + 1] ?? 1;
    const inBin = confidences.filter((item) => item.confidence >= from && item.confidence < to);
    const meanConfidence = inBin.reduce((sum, item) => sum + item.confidence, 0) / (inBin.length || 1);
    const accuracy = inBin.filter((item) => item.correct).length / (inBin.length || 1);
    return { from, to: Math.min(to, 1), count: inBin.length, meanConfidence, accuracy };
  });
  const ece = bins.reduce(
    (sum, bin) => sum + (bin.count / (confidences.length || 1)) * Math.abs(bin.meanConfidence - bin.accuracy),
    0,
  );
  return {
    protocols: protocols.length,
    evaluable: evaluable.length,
    excluded: protocols
      .filter((protocol) => !protocol.evaluable)
      .map(({ label, rows, examplePath }) => ({ label, rows, examplePath })),
    perClass,
    confusion,
    overall: { total: evaluable.length, correct, accuracy: evaluable.length ? correct / evaluable.length : Number.NaN },
    calibration: { bins, ece },
    errors,
  };
}

/** The confusion matrix as aligned text (rows: label, columns: prediction), for the bench and test failure messages. */
export function formatConfusion(evaluation: Evaluation): string {
  const names = CLASSIFIED_TYPES.map((type) => (type === 'T1_CONTRAST' ? 'T1+C' : type));
  const width = 7;
  const header = `${'label \\ predicted'.padEnd(18)}${names.map((name) => name.padStart(width)).join('')}   recall`;
  const lines = CLASSIFIED_TYPES.map((truth, i) => {
    const score = evaluation.perClass[truth];
    const recall = score.total
      ? `${(score.accuracy * 100).toFixed(1)}% (${score.correct}/${score.total})`
      : 'n/a (none labelled)';
    return `${(names[i] ?? truth).padEnd(18)}${CLASSIFIED_TYPES.map((predicted) => String(evaluation.confusion[truth][predicted]).padStart(width)).join('')}   ${recall}`;
  });
  return [header, ...lines].join('\n');
}
