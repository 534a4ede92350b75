import { sameSuffix } from '#shared/dicom/classify/bids-labels.ts';
import { classifySeries } from '#shared/dicom/classify/classify.ts';
import { reviewByStudy, type Protocol } from './evaluation.ts';
import { fitFromScored, scoreProtocols } from './fit.ts';
import { classifyByKeywords } from './keyword-baseline.ts';
import { thresholdFor } from '#shared/dicom/classify/model.ts';
import type { BidsSuggestion, ClassifiedType, ClassifyOptions } from '#shared/dicom/classify/types.ts';

/**
 * Leave one source out, by unique protocol (docs/classification.md#measuring-on-unseen-scanners): for each source, the classifier's fitted parameters are refitted on every
 * other source, then the held-out source's evaluable protocols are classified and scored. The keyword baseline runs
 * on the same protocols. Class accuracy counts every evaluable protocol; suffix accuracy counts those whose label has
 * a suffix in the BIDS vocabulary (bids-labels.ts).
 */
export type Answer = { classifiedType: ClassifiedType; bids: BidsSuggestion };

export type LosoRecord = {
  protocol: Protocol;
  /**
   * `flagged`: below the fold's threshold, or flagged by the study review (`studyReview`, its reason) in most of the
   * studies the protocol occurs in (evaluation.ts reviewByStudy).
   */
  ours: Answer & { confidence: number; flagged: boolean; reasons: string[]; studyReview?: string };
  keyword: Answer;
};

export type Score = { total: number; correct: number; accuracy: number };

export type LosoSummary = {
  class: Score;
  suffix: Score;
  keywordClass: Score;
  keywordSuffix: Score;
  /** The review flag: protocols flagged, wrong class answers, and the wrong answers flagged. */
  flag: { flagged: number; wrong: number; caught: number };
};

export type LosoResult = {
  records: LosoRecord[];
  overall: LosoSummary;
  perSource: Map<string, LosoSummary>;
  /** Recall per labelled class and per labelled suffix. */
  perClass: Map<ClassifiedType, Score>;
  perSuffix: Map<string, Score>;
  /**
   * BIDS entities the headers can give, scored against the labelled file names: for each entity, the protocols whose
   * label carries it and how many of those ours names with the same value (numbers compared as numbers), and how many
   * protocols ours gives it that the label lacks.
   */
  perEntity: Map<string, { labelled: number; matched: number; spurious: number }>;
  /**
   * The review flag: share of all protocols flagged, share of wrong class answers flagged; and the same share among the
   * wrong answers other than post-contrast T1s read as T1 (nothing the classifier reads states a contrast: no agent
   * recorded, no description saying so), which no reading of the series can tell.
   */
  flag: {
    flaggedShare: number;
    errorsCaught: number;
    errors: number;
    flagged: number;
    total: number;
    unstatedContrast: number;
    errorsCaughtBesidesUnstatedContrast: number;
    /** Protocols the study review flags, and the wrong answers among them. */
    byStudy: number;
    byStudyWrong: number;
    /** The post-contrast T1s that state no contrast flagged (by either flag). */
    unstatedContrastCaught: number;
  };
};

/**
 * Entities whose value the headers in the labelled CSVs determine. acq, rec, run and task are the curator's words; echo
 * and dir need EchoNumber and PhaseEncodingDirection, which the CSVs do not carry; no labelled file names a ce (the
 * unit tests and the shared DICOM check those).
 */
const SCORED_ENTITIES = ['part', 'mt', 'flip'] as const;

const score = (total: number, correct: number): Score => ({
  total,
  correct,
  accuracy: total > 0 ? correct / total : Number.NaN,
});

export const classRight = (answer: Answer, protocol: Protocol) => protocol.accepts.includes(answer.classifiedType);

export const suffixRight = (answer: Answer, protocol: Protocol) =>
  protocol.labelBids.suffix !== undefined && sameSuffix(answer.bids.suffix, protocol.labelBids.suffix);

function summarise(records: LosoRecord[]): LosoSummary {
  const withSuffix = records.filter((record) => record.protocol.labelBids.suffix !== undefined);
  const count = (list: LosoRecord[], right: (record: LosoRecord) => boolean) =>
    score(list.length, list.filter(right).length);
  return {
    class: count(records, (r) => classRight(r.ours, r.protocol)),
    suffix: count(withSuffix, (r) => suffixRight(r.ours, r.protocol)),
    keywordClass: count(records, (r) => classRight(r.keyword, r.protocol)),
    keywordSuffix: count(withSuffix, (r) => suffixRight(r.keyword, r.protocol)),
    flag: {
      flagged: records.filter((r) => r.ours.flagged).length,
      wrong: records.filter((r) => !classRight(r.ours, r.protocol)).length,
      caught: records.filter((r) => r.ours.flagged && !classRight(r.ours, r.protocol)).length,
    },
  };
}

export function leaveOneSourceOut(protocols: Protocol[], options: ClassifyOptions = {}): LosoResult {
  const sources = [...new Set(protocols.filter((p) => p.evaluable).map((protocol) => protocol.source))].sort();
  return heldOut(
    protocols,
    sources.map((source) => [source]),
    options,
  );
}

/**
 * The lockbox figure (docs/classification.md#the-lockbox): everything fitted on the protocols of every source outside
 * `locked`, then the locked sources' protocols classified and scored as one held-out fold.
 */
export function lockboxEvaluation(protocols: Protocol[], locked: readonly string[], options: ClassifyOptions = {}) {
  return heldOut(protocols, [[...locked]], options);
}

/**
 * Scores each fold's sources with the parameters fitted on every other source of `protocols`: one source a fold is
 * leave one source out, the locked sources as one fold is the lockbox.
 */
function heldOut(protocols: Protocol[], folds: string[][], options: ClassifyOptions): LosoResult {
  const evaluable = protocols.filter((protocol) => protocol.evaluable);
  const sources = [...new Set(folds.flat())].sort();
  const records: LosoRecord[] = [];
  // Every protocol's unfitted decision is the same in every fold: score once, refit per fold from the others. The study
  // review reads every protocol of a study, evaluable or not, and no label: it is the same in every fold too.
  const studyWith = reviewByStudy(protocols, {});
  const studyWithout = reviewByStudy(protocols, { ignoreDescriptions: true });
  const withDescriptions = scoreProtocols(evaluable, false, studyWith);
  const withoutDescriptions = scoreProtocols(evaluable, true, studyWithout);
  const studyReview = options.ignoreDescriptions ? studyWithout : studyWith;
  for (const fold of folds) {
    const held = new Set(fold);
    const model = fitFromScored(
      withDescriptions.filter((item) => !held.has(item.source)),
      withoutDescriptions.filter((item) => !held.has(item.source)),
    );
    const threshold = thresholdFor(model, options);
    for (const protocol of evaluable.filter((item) => held.has(item.source))) {
      const result = classifySeries(protocol.acquisition, { ...options, model });
      const review = studyReview.get(protocol);
      records.push({
        protocol,
        ours: {
          ...result,
          flagged: result.confidence < threshold || review !== undefined,
          ...(review === undefined ? {} : { studyReview: review }),
        },
        keyword: classifyByKeywords(protocol.acquisition, options),
      });
    }
  }
  const perSource = new Map(
    sources.map((source) => [source, summarise(records.filter((record) => record.protocol.source === source))]),
  );
  const perClass = new Map<ClassifiedType, Score>();
  for (const label of [...new Set(records.map((record) => record.protocol.label))].sort()) {
    const list = records.filter((record) => record.protocol.label === label);
    perClass.set(label, score(list.length, list.filter((r) => classRight(r.ours, r.protocol)).length));
  }
  const perSuffix = new Map<string, Score>();
  const suffixes = records.flatMap((record) => record.protocol.labelBids.suffix ?? []);
  for (const suffix of [...new Set(suffixes)].sort()) {
    const list = records.filter((record) => record.protocol.labelBids.suffix === suffix);
    perSuffix.set(suffix, score(list.length, list.filter((r) => suffixRight(r.ours, r.protocol)).length));
  }
  const perEntity = new Map<string, { labelled: number; matched: number; spurious: number }>();
  const sameValue = (a: string, b: string) =>
    a.toLowerCase() === b.toLowerCase() || (Number(a) === Number(b) && a !== '');
  for (const entity of SCORED_ENTITIES) {
    const tally = { labelled: 0, matched: 0, spurious: 0 };
    for (const { protocol, ours } of records) {
      const label = protocol.labelEntities[entity];
      const given = ours.bids.entities?.[entity];
      if (label !== undefined) {
        tally.labelled += 1;
        if (given !== undefined && sameValue(given, label)) tally.matched += 1;
      } else if (given !== undefined) tally.spurious += 1;
    }
    perEntity.set(entity, tally);
  }
  const wrong = records.filter((record) => !classRight(record.ours, record.protocol));
  const flagged = records.filter((record) => record.ours.flagged);
  // A post-contrast T1 answered T1: had an agent or a description stated the contrast, the answer would have been
  // T1_CONTRAST (classify.ts contrastEvidence), so nothing the classifier read stated it.
  const unstated = (record: LosoRecord) =>
    record.protocol.label === 'T1_CONTRAST' && record.ours.classifiedType === 'T1';
  const knowable = wrong.filter((record) => !unstated(record));
  return {
    records,
    overall: summarise(records),
    perSource,
    perClass,
    perSuffix,
    perEntity,
    flag: {
      flaggedShare: records.length ? flagged.length / records.length : 0,
      errorsCaught: wrong.length ? wrong.filter((record) => record.ours.flagged).length / wrong.length : 1,
      errors: wrong.length,
      flagged: flagged.length,
      total: records.length,
      unstatedContrast: wrong.length - knowable.length,
      errorsCaughtBesidesUnstatedContrast: knowable.length
        ? knowable.filter((record) => record.ours.flagged).length / knowable.length
        : 1,
      byStudy: records.filter((record) => record.ours.studyReview !== undefined).length,
      byStudyWrong: wrong.filter((record) => record.ours.studyReview !== undefined).length,
      unstatedContrastCaught: wrong.filter((record) => unstated(record) && record.ours.flagged).length,
    },
  };
}
