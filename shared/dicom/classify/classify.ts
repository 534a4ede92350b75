import { CLASSIFIED_TYPES } from '#shared/vocabulary/datasets.ts';
import { descriptionEvidence, descriptionSaysPostContrast } from './descriptions.ts';
import { DEFAULT_MODEL, priorFor, thresholdFor } from './model.ts';
import {
  BIDS,
  ernstAngle,
  hasContrastAgent,
  physicsEvidence,
  readFeatures,
  T1_FLIP_OVER_ERNST,
  tokens,
  WEIGHT,
  type Evidence,
} from './physics.ts';
import type {
  BidsSuggestion,
  ClassifiedType,
  ClassifyOptions,
  SeriesAcquisition,
  SeriesClassification,
} from './types.ts';

/**
 * Below this confidence a series is flagged for review (with descriptions, under the shipped model); how it is fitted:
 * docs/classification.md#confidence-and-the-review-flag.
 */
export const LOW_CONFIDENCE_THRESHOLD = DEFAULT_MODEL.lowConfidenceThreshold.withDescriptions;

/**
 * The OTHER prior: with no evidence at all a series is OTHER (confidence low), and a weak contrast hint
 * (one rule scaled down for a missing TR) does not beat it.
 */
const OTHER_PRIOR = 1.5;

/**
 * A type with no evidence at all starts below zero: once the physics has been read, silence about a contrast is
 * (weak) evidence against it, which keeps "nothing recognised → OTHER" from reading as a near-uniform guess.
 */
const ABSENT_SCORE = -1;

/**
 * Softmax temperature turning scores into probabilities. 1 keeps the evidence weights in natural-log-odds units;
 * bench/classify.ts prints the reliability table (mean confidence against accuracy per bin) on the dev sidecars.
 */
const TEMPERATURE = 1;

/**
 * The confidence from the reliability records of a decision chain (coarsest first): the evidence scores' own
 * probability is the starting estimate, and each record that exists pulls it towards how often that decision was right
 * on labelled series, the estimate so far weighing as `prior` series (fitted per reading: model.ts reliabilityPrior). A decision
 * seen rarely stays near its coarser reading; one seen often speaks for itself.
 */
export function reliableConfidence(
  scoreConfidence: number,
  records: readonly (readonly [number, number] | undefined)[],
  prior: number,
): number {
  let estimate = scoreConfidence;
  for (const record of records) {
    if (!record || record[1] <= 0) continue;
    estimate = (record[0] + prior * estimate) / (record[1] + prior);
  }
  return estimate;
}

/** T1 and post-contrast T1 are one type family: they differ by a contrast statement, not by acquisition physics. */
export const typeFamily = (type: ClassifiedType): ClassifiedType => (type === 'T1_CONTRAST' ? 'T1' : type);
const sameFamily = (a: ClassifiedType, b: ClassifiedType) => typeFamily(a) === typeFamily(b);

const DEFAULT_BIDS: Record<ClassifiedType, BidsSuggestion> = {
  T1: BIDS.T1w,
  T1_CONTRAST: BIDS.T1w,
  T2: BIDS.T2w,
  FLAIR: BIDS.FLAIR,
  DTI: BIDS.dwi,
  DWI: BIDS.dwi,
  SWI: BIDS.T2starw,
  OTHER: { datatype: 'misc', suffix: 'unknown' },
};

function contrastEvidence(acq: SeriesAcquisition, useDescriptions: boolean, t1Score: number): Evidence | undefined {
  if (hasContrastAgent(acq)) {
    return {
      type: 'T1_CONTRAST',
      weight: t1Score + WEIGHT.strong,
      reason: 'contrast agent recorded in ContrastBolusAgent (0018,0010): post-contrast T1',
      bids: BIDS.T1w,
    };
  }
  if (useDescriptions && descriptionSaysPostContrast(acq)) {
    return {
      type: 'T1_CONTRAST',
      weight: t1Score + WEIGHT.moderate,
      reason: `description "${acq.seriesDescription ?? acq.protocolName ?? ''}" says post-contrast`,
      bids: BIDS.T1w,
    };
  }
  return undefined;
}

/**
 * Classifies one series into T1, T2, FLAIR, DTI, T1_CONTRAST, DWI, SWI or OTHER from its acquisition physics
 * (TR, TE, TI, flip angle, sequence type and variant, image type, diffusion encoding, contrast agent, volumes),
 * with the descriptions as one more piece of evidence unless `ignoreDescriptions` is set. Pure and fast (microseconds).
 * The confidence is the softmax probability of the winning type over the summed evidence weights.
 * @example classifySeries({ repetitionTimeMs: 2300, echoTimeMs: 2.98, inversionTimeMs: 900, flipAngle: 9, scanningSequence: ['GR', 'IR'] })
 *   // → { classifiedType: 'T1', confidence: 0.9…, bids: { datatype: 'anat', suffix: 'T1w' }, reasons: [...] }
 */
export function classifySeries(acq: SeriesAcquisition, options: ClassifyOptions = {}): SeriesClassification {
  return classifyWithDecision(acq, options).classification;
}

/**
 * Sums the evidence into a score per type (OTHER starting from its prior, unmentioned types below zero), adds the
 * post-contrast evidence when T1 leads (pushed onto `evidence`), and picks the winner; ties go to OTHER (the prior), so
 * "no evidence" never reads as a contrast.
 */
function scoreEvidence(
  evidence: Evidence[],
  acq: SeriesAcquisition,
  useDescriptions: boolean,
): { scores: Record<ClassifiedType, number>; winner: ClassifiedType } {
  const scores = Object.fromEntries(CLASSIFIED_TYPES.map((type) => [type, 0])) as Record<ClassifiedType, number>;
  scores.OTHER = OTHER_PRIOR;
  for (const item of evidence) scores[item.type] += item.weight;
  const mentioned = new Set<ClassifiedType>(['OTHER', ...evidence.map((item) => item.type)]);
  for (const type of CLASSIFIED_TYPES) if (!mentioned.has(type) && type !== 'T1_CONTRAST') scores[type] = ABSENT_SCORE;
  if (!mentioned.has('T1')) scores.T1_CONTRAST = ABSENT_SCORE;
  const best = () =>
    CLASSIFIED_TYPES.reduce((top, type) => (scores[type] > scores[top] ? type : top), 'OTHER' as ClassifiedType);
  if (best() === 'T1') {
    const contrast = contrastEvidence(acq, useDescriptions, scores.T1);
    if (contrast) {
      evidence.push(contrast);
      scores.T1_CONTRAST += contrast.weight;
    }
  }
  return { scores, winner: best() };
}

/**
 * The classification with the decisions that produced it, coarsest first: the winning type and whether the description
 * agreed, disagreed, was silent or ignored; with descriptions, that split by whether the physics alone gives the same
 * type; then the rule that carried it (its reason with numbers and quoted names left out) within the same split. The
 * model's reliability table (fitted on labelled series) holds how often each decision was right; the confidence is read
 * from the chain (reliableConfidence).
 */
export function classifyWithDecision(
  acq: SeriesAcquisition,
  options: ClassifyOptions = {},
): { classification: SeriesClassification; decisions: string[] } {
  const model = options.model ?? DEFAULT_MODEL;
  const useDescriptions = !options.ignoreDescriptions;
  const physics = physicsEvidence(acq);
  const evidence: Evidence[] = [...physics, ...(useDescriptions ? descriptionEvidence(acq) : [])];
  const { scores, winner } = scoreEvidence(evidence, acq, useDescriptions);
  const max = Math.max(...CLASSIFIED_TYPES.map((type) => scores[type]));
  const total = CLASSIFIED_TYPES.reduce((sum, type) => sum + Math.exp((scores[type] - max) / TEMPERATURE), 0);
  // The type's probability, with T1 and post-contrast T1 as one family: the contrast split rests on an explicit
  // statement (the agent recorded, or the description), not on scores that compete.
  const family = (type: ClassifiedType) => (winner === 'T1' || winner === 'T1_CONTRAST') && sameFamily(type, winner);
  const scoreConfidence =
    CLASSIFIED_TYPES.filter(family).reduce((sum, type) => sum + Math.exp((scores[type] - max) / TEMPERATURE), 0) /
      total || Math.exp((scores[winner] - max) / TEMPERATURE) / total;

  const supporting = evidence.filter((item) => item.type === winner).sort((a, b) => b.weight - a.weight);
  const against = evidence.filter((item) => item.type !== winner && !(winner === 'T1_CONTRAST' && item.type === 'T1'));
  const t1Support = winner === 'T1_CONTRAST' ? evidence.filter((item) => item.type === 'T1') : [];
  const reasons = [...t1Support, ...supporting].map((item) => item.reason);
  if (reasons.length === 0)
    reasons.push(
      winner === 'OTHER' ? 'no acquisition parameter points to T1, T2, FLAIR, diffusion or SWI' : `scored ${winner}`,
    );
  for (const item of against) reasons.push(`outweighed: ${item.reason} (suggests ${item.type})`);
  if (!useDescriptions) reasons.push('descriptions ignored (acquisition parameters only)');

  // The suffix: one read from the headers themselves, else the description's (it names families physics cannot tell
  // apart, e.g. sbref from bold), else the strongest physics evidence's.
  const described = evidence.filter((item) => item.fromDescription);
  const agreement = !useDescriptions
    ? 'ignored'
    : described.length === 0
      ? 'silent'
      : described.some((item) => item.type === winner || (winner === 'T1_CONTRAST' && item.type === 'T1'))
        ? 'agrees'
        : 'disagrees';
  const carrier = supporting.find((item) => !item.fromDescription) ?? supporting[0];
  const rule = (carrier?.reason ?? 'no evidence').replace(/"[^"]*"/g, '""').replace(/\d+(\.\d+)?/g, '#');
  // Nothing supports the winner (OTHER by its prior alone): how often such series turned out OTHER says what the
  // labelled sets held, not what this series is. No decision is recorded; the score's own (low) probability stands.
  const decisions =
    supporting.length === 0
      ? []
      : [`${winner} | description ${agreement}`, `${winner} | ${rule} | description ${agreement}`];
  if (useDescriptions && decisions.length > 0) {
    // With descriptions the chain is a tree (docs/classification.md#confidence-and-the-review-flag): the type with what
    // the description did; then split by whether the physics alone reads the same type, the evidence the series itself
    // carries; then the rule that carried it within that split. A rule seen rarely borrows from its type's records on
    // the same side of the split, not from answers the description alone carried.
    const physicsOnly = scoreEvidence([...physics], acq, false).winner;
    const physicsSays = `physics ${physicsOnly === winner ? 'agrees' : 'differs'}`;
    decisions.splice(1, 1, `${decisions[0]!} | ${physicsSays}`, `${decisions[1]!} | ${physicsSays}`);
  }
  const confidence = reliableConfidence(
    scoreConfidence,
    decisions.map((decision) => model.reliability[decision]),
    priorFor(model, options),
  );

  const bids =
    supporting.find((item) => item.bids && item.certainSuffix)?.bids ??
    supporting.find((item) => item.bids && item.fromDescription)?.bids ??
    supporting.find((item) => item.bids)?.bids ??
    DEFAULT_BIDS[winner];
  return {
    classification: {
      classifiedType: winner,
      confidence: Math.round(confidence * 1000) / 1000,
      reasons,
      bids: withEntities(bids, acq, winner),
    },
    decisions,
  };
}

/** Suffixes whose files are one echo each of a multi-echo acquisition, so BIDS names the echo. */
const MULTI_ECHO_SUFFIXES = new Set(['MEGRE', 'MESE', 'MPM', 'VFA']);

/** Suffixes of EPI read-outs whose phase-encoding direction BIDS names with dir (func, dwi, perf, fmap epi). */
const DIRECTION_SUFFIXES = new Set(['bold', 'sbref', 'phase', 'cbv', 'dwi', 'epi', 'TB1EPI', 'asl', 'm0scan']);

/** Magnetization-transfer and variable-flip sets, whose files BIDS tells apart by mt and flip. */
const FLIP_SETS = new Set(['MTS', 'MPM', 'VFA']);

/**
 * BIDS phase-encoding labels from PhaseEncodingDirection along the second image axis as dcm2niix writes it
 * (anterior to posterior is "j-").
 */
const DIRECTION_LABEL: Record<string, string> = { 'j-': 'AP', j: 'PA' };

/**
 * BIDS entities the headers give (BIDS "Entities"): part (phase or magnitude of a complex series), mt (magnetization
 * transfer on or off in an MTS / MPM set), flip (1 for the proton-density flip, 2 for the T1-weighted one, as in the
 * BIDS MTS and MPM examples: a flip well above the Ernst angle is the T1-weighted one), ce (the contrast agent of a
 * post-contrast T1), dir (AP / PA from the phase-encoding direction of EPI read-outs), acq (anat / famp / refv for the
 * magnitude image, flip-angle map and reference-voltage map of a B1 mapping), echo (EchoNumber of a multi-echo
 * series); the echo number also tells a field map's second magnitude image. rec is left to people: the labels it takes
 * (prenorm, defaced, ...) depend on the other series of the session.
 */
function withEntities(bids: BidsSuggestion, acq: SeriesAcquisition, type: ClassifiedType): BidsSuggestion {
  const entities: Record<string, string> = { ...bids.entities };
  const image = tokens(acq.imageType);
  const complexCapable = !['phasediff', 'phase1', 'phase2', 'fieldmap'].includes(bids.suffix);
  if (complexCapable && (image.has('P') || image.has('PHASE'))) entities.part = 'phase';
  let suffix = bids.suffix;
  const echo = acq.echoNumber;
  // A two-echo field map's magnitude images: the second echo is magnitude2.
  if (suffix === 'magnitude1' && echo !== undefined && echo >= 2) suffix = 'magnitude2';
  if (
    echo !== undefined &&
    echo >= 1 &&
    (MULTI_ECHO_SUFFIXES.has(suffix) || echo >= 2) &&
    !/^magnitude|^phase/.test(suffix)
  )
    entities.echo = String(echo);
  if (type === 'T1_CONTRAST') {
    const agent = (acq.contrastAgent ?? '').replace(/[^A-Za-z0-9]/g, '');
    entities.ce = agent && hasContrastAgent(acq) ? agent.toLowerCase() : 'contrast';
  }
  const direction = DIRECTION_LABEL[acq.phaseEncodingDirection ?? ''];
  if (direction && DIRECTION_SUFFIXES.has(suffix)) entities.dir = direction;
  if (FLIP_SETS.has(suffix)) {
    const f = readFeatures(acq);
    if (suffix !== 'VFA') entities.mt = f.mt ? 'on' : 'off';
    if (f.tr !== undefined && f.fa !== undefined)
      entities.flip = f.fa >= T1_FLIP_OVER_ERNST * ernstAngle(f.tr) && !f.mt ? '2' : '1';
  }
  if (suffix === 'TB1TFL' || suffix === 'TB1DREAM') {
    if (image.has('B1MAP') || (image.has('FLIP') && image.has('ANGLE'))) entities.acq = 'famp';
    else if (image.has('REFVOLTMAP')) entities.acq = 'refv';
    else if (image.has('M') || image.has('MAGNITUDE')) entities.acq = 'anat';
  }
  const { entities: _dropped, ...rest } = bids;
  return Object.keys(entities).length > 0 ? { ...rest, suffix, entities } : { ...rest, suffix };
}

/** True when a classification should be reviewed by a person (the model's threshold for how it was classified). */
export function isLowConfidence(
  classification: Pick<SeriesClassification, 'confidence'>,
  options: ClassifyOptions = {},
): boolean {
  return classification.confidence < thresholdFor(options.model ?? DEFAULT_MODEL, options);
}
