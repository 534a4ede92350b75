import { classifyWithDecision, reliableConfidence, typeFamily } from '#shared/dicom/classify/classify.ts';
import { reviewByStudy, type Protocol } from './evaluation.ts';
import { FLAG_BUDGETS, RELIABILITY_PRIORS, REVIEW_LIMIT, type ClassifierModel } from '#shared/dicom/classify/model.ts';

/** A protocol's unfitted decision; `studyFlagged` when the study review flags it whatever its confidence. */
export type Scored = {
  source: string;
  decisions: string[];
  scoreConfidence: number;
  right: boolean;
  studyFlagged: boolean;
};

const UNTRAINED: ClassifierModel = {
  lowConfidenceThreshold: { withDescriptions: 0, withoutDescriptions: 0 },
  reliability: {},
  reliabilityPrior: { withDescriptions: 1, withoutDescriptions: 1 },
};

/**
 * Threshold steps: confidences (rounded to 0.001 as classify.ts gives them) are compared with step / STEPS, so a
 * threshold can fall between any two confidences a series can have.
 */
const STEPS = 1000;

/**
 * For one source, how many of its protocols and of its wrong answers fall below each threshold step, so the threshold
 * fitted on any set of sources is read from sums instead of rescoring.
 */
type SourceTally = { total: number; wrong: number; flagged: number[]; caught: number[] };

/**
 * Each protocol's confidence computed from the reliability records of the OTHER sources only (the confidence a new site
 * would see), tallied per source and threshold step.
 */
function tallyBySource(scored: Scored[], prior: number): Map<string, SourceTally> {
  const perSource = new Map<string, [number, number]>();
  const total = new Map<string, [number, number]>();
  for (const item of scored) {
    for (const decision of item.decisions) {
      for (const [map, id] of [
        [perSource, `${decision}\u0000${item.source}`],
        [total, decision],
      ] as const) {
        const record = map.get(id) ?? [0, 0];
        record[0] += item.right ? 1 : 0;
        record[1] += 1;
        map.set(id, record);
      }
    }
  }
  const tallies = new Map<string, SourceTally>();
  for (const item of scored) {
    const records = item.decisions.map((decision): [number, number] => {
      const all = total.get(decision) ?? [0, 0];
      const own = perSource.get(`${decision}\u0000${item.source}`) ?? [0, 0];
      return [all[0] - own[0], all[1] - own[1]];
    });
    const confidence = Math.round(reliableConfidence(item.scoreConfidence, records, prior) * 1000) / 1000;
    let tally = tallies.get(item.source);
    if (!tally) {
      tally = { total: 0, wrong: 0, flagged: new Array(STEPS + 1).fill(0), caught: new Array(STEPS + 1).fill(0) };
      tallies.set(item.source, tally);
    }
    tally.total += 1;
    if (!item.right) tally.wrong += 1;
    if (item.studyFlagged) {
      // Flagged by the study review at every threshold: it takes its share of the budget first.
      tally.flagged[0] = tally.flagged[0]! + 1;
      if (!item.right) tally.caught[0] = tally.caught[0]! + 1;
      continue;
    }
    // Counted at the first step whose threshold lies above the confidence; summed into "below each step" after.
    const first = Math.floor(Math.round(confidence * STEPS * 10) / 10) + 1;
    if (first <= STEPS) {
      tally.flagged[first] = tally.flagged[first]! + 1;
      if (!item.right) tally.caught[first] = tally.caught[first]! + 1;
    }
  }
  for (const tally of tallies.values()) {
    for (let step = 1; step <= STEPS; step += 1) {
      tally.flagged[step] = tally.flagged[step]! + tally.flagged[step - 1]!;
      tally.caught[step] = tally.caught[step]! + tally.caught[step - 1]!;
    }
  }
  return tallies;
}

/** The pooled tallies of every source but one. */
function pooled(all: SourceTally, without: SourceTally): SourceTally {
  return {
    total: all.total - without.total,
    wrong: all.wrong - without.wrong,
    flagged: all.flagged.map((value, step) => value - without.flagged[step]!),
    caught: all.caught.map((value, step) => value - without.caught[step]!),
  };
}

/** The pooled tallies of the given sources. */
function sum(tallies: SourceTally[]): SourceTally {
  const out: SourceTally = {
    total: 0,
    wrong: 0,
    flagged: new Array(STEPS + 1).fill(0),
    caught: new Array(STEPS + 1).fill(0),
  };
  for (const t of tallies) {
    out.total += t.total;
    out.wrong += t.wrong;
    for (let step = 0; step <= STEPS; step += 1) {
      out.flagged[step] = out.flagged[step]! + t.flagged[step]!;
      out.caught[step] = out.caught[step]! + t.caught[step]!;
    }
  }
  return out;
}

/**
 * The lowest threshold step that flags the most wrong answers of the pooled sources without flagging more than `budget`
 * of their protocols.
 */
function stepWithin(tally: SourceTally, budget: number): { step: number; recall: number } {
  let best = { step: 0, recall: 0 };
  for (let step = 1; step <= STEPS; step += 1) {
    if (tally.flagged[step]! > budget * tally.total) break;
    const recall = tally.wrong > 0 ? tally.caught[step]! / tally.wrong : 1;
    if (recall > best.recall) best = { step, recall };
  }
  return best;
}

/**
 * The budget the threshold is fitted with, chosen on the training sources alone: for each candidate (FLAG_BUDGETS),
 * every training source is left out in turn, the threshold fitted on the others is applied to it, and the candidate
 * whose pooled flags stay within REVIEW_LIMIT while catching the most wrong answers is kept. A held-out site's share
 * lands on either side of the fitted one; this measures by how much on sites the fit has not seen, without looking at
 * the source being evaluated.
 */
function chooseBudget(tallies: Map<string, SourceTally>): { budget: number; recall: number; flagged: number } {
  const all = sum([...tallies.values()]);
  let chosen = { budget: FLAG_BUDGETS[0] as number, recall: -1, flagged: 0 };
  for (const budget of FLAG_BUDGETS) {
    let flagged = 0;
    let caught = 0;
    for (const held of tallies.values()) {
      const { step } = stepWithin(pooled(all, held), budget);
      flagged += held.flagged[step] ?? 0;
      caught += held.caught[step] ?? 0;
    }
    const recall = all.wrong > 0 ? caught / all.wrong : 1;
    if (flagged <= REVIEW_LIMIT * all.total && recall > chosen.recall) chosen = { budget, recall, flagged };
  }
  return chosen;
}

/**
 * The confidence threshold that flags the most wrong answers within the budget chosen on these sources
 * (chooseBudget), with each protocol's confidence computed from the other sources' records only; `recall` is the
 * share of wrong answers caught on the sources left out in turn, which picks the prior.
 */
function fitThreshold(
  scored: Scored[],
  prior: number,
): { threshold: number; recall: number; budget: number; flagged: number } {
  const tallies = tallyBySource(scored, prior);
  const { budget, recall, flagged } = chooseBudget(tallies);
  const { step } = stepWithin(sum([...tallies.values()]), budget);
  return { threshold: step / STEPS, recall, budget, flagged };
}

/**
 * Each protocol classified once without fitted parameters: its decision, score probability and rightness, and whether
 * the study review flags it (reviewByStudy over `studyContext`, every protocol of the labelled studies by default).
 */
export function scoreProtocols(
  protocols: Protocol[],
  ignoreDescriptions: boolean,
  studyFlagged: ReadonlyMap<Protocol, string> = reviewByStudy(protocols, { ignoreDescriptions }),
): Scored[] {
  return protocols
    .filter((protocol) => protocol.evaluable)
    .map((protocol) => {
      const { classification, decisions } = classifyWithDecision(protocol.acquisition, {
        ignoreDescriptions,
        model: UNTRAINED,
      });
      return {
        source: protocol.source,
        decisions,
        scoreConfidence: classification.confidence,
        // The records measure the type family (classify.ts typeFamily): a post-contrast T1 whose headers and
        // description say nothing of contrast reads as T1 at every site, and counting it against the T1 rules would
        // only lower their confidence at sites that have none.
        right: protocol.accepts.some((label) => typeFamily(label) === typeFamily(classification.classifiedType)),
        studyFlagged: studyFlagged.has(protocol),
      };
    });
}

/** The model from scored protocols (scoreProtocols with and without descriptions). */
export function fitFromScored(withDescriptions: Scored[], withoutDescriptions: Scored[]): ClassifierModel {
  const reliability: Record<string, [number, number]> = {};
  for (const item of [...withDescriptions, ...withoutDescriptions]) {
    for (const decision of item.decisions) {
      const record = (reliability[decision] ??= [0, 0]);
      if (item.right) record[0] += 1;
      record[1] += 1;
    }
  }
  // For each reading (with descriptions, physics only), the prior and budget whose flags catch the most wrong answers
  // of the training sources left out in turn (chooseBudget), and the threshold that goes with them.
  const choose = (scored: Scored[]) => {
    let chosen = { prior: RELIABILITY_PRIORS[0] as number, recall: -1, flagged: 0, threshold: 0 };
    for (const prior of RELIABILITY_PRIORS) {
      const fit = fitThreshold(scored, prior);
      if (fit.recall > chosen.recall || (fit.recall === chosen.recall && fit.flagged < chosen.flagged))
        chosen = { prior, recall: fit.recall, flagged: fit.flagged, threshold: fit.threshold };
    }
    return chosen;
  };
  const withChoice = choose(withDescriptions);
  const withoutChoice = choose(withoutDescriptions);
  return {
    lowConfidenceThreshold: { withDescriptions: withChoice.threshold, withoutDescriptions: withoutChoice.threshold },
    reliability: Object.fromEntries(Object.entries(reliability).sort(([a], [b]) => a.localeCompare(b))),
    reliabilityPrior: { withDescriptions: withChoice.prior, withoutDescriptions: withoutChoice.prior },
  };
}

/**
 * Fits the classifier's learned parameters on labelled protocols (evaluable ones only): the reliability record of
 * every decision, with and without descriptions, then the review thresholds.
 */
export function fitClassifier(protocols: Protocol[]): ClassifierModel {
  return fitFromScored(scoreProtocols(protocols, false), scoreProtocols(protocols, true));
}
