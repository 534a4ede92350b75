import { classifyWithDecision, reliableConfidence, typeFamily } from './classify.ts';
import type { Protocol } from './evaluation.ts';
import { FLAG_BUDGET, RELIABILITY_PRIORS, type ClassifierModel } from './model.ts';

export type Scored = { source: string; decisions: string[]; scoreConfidence: number; right: boolean };

const UNTRAINED: ClassifierModel = {
  lowConfidenceThreshold: { withDescriptions: 0, withoutDescriptions: 0 },
  reliability: {},
  reliabilityPrior: { withDescriptions: 1, withoutDescriptions: 1 },
};

/**
 * The confidence threshold that flags the most wrong answers without flagging more than FLAG_BUDGET of all series
 * (the lowest such threshold). Each protocol's confidence is computed from the reliability records of the OTHER sources
 * only, so the threshold is fitted on confidences as a new site would see them. Rounded to 0.01 so the shipped value is
 * stable.
 */
function fitThreshold(scored: Scored[], prior: number): { threshold: number; recall: number } {
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
  const confidences = scored.map((item) => {
    const records = item.decisions.map((decision): [number, number] => {
      const all = total.get(decision) ?? [0, 0];
      const own = perSource.get(`${decision}\u0000${item.source}`) ?? [0, 0];
      return [all[0] - own[0], all[1] - own[1]];
    });
    const confidence = reliableConfidence(item.scoreConfidence, records, prior);
    return { confidence: Math.round(confidence * 1000) / 1000, wrong: !item.right };
  });
  const wrong = confidences.filter((item) => item.wrong).length;
  let best = { threshold: 0, recall: 0 };
  for (let step = 1; step <= 100; step += 1) {
    const threshold = step / 100;
    const flagged = confidences.filter((item) => item.confidence < threshold);
    if (flagged.length > FLAG_BUDGET * confidences.length) break;
    const recall = wrong > 0 ? flagged.filter((item) => item.wrong).length / wrong : 1;
    if (recall > best.recall) best = { threshold, recall };
  }
  return best;
}

/** Each protocol classified once without fitted parameters: its decision, score probability and rightness. */
export function scoreProtocols(protocols: Protocol[], ignoreDescriptions: boolean): Scored[] {
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
        right: typeFamily(classification.classifiedType) === typeFamily(protocol.label),
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
  // For each reading (with descriptions, physics only), the prior whose leave-source-out flags catch the most wrong
  // answers within the budget, and the threshold that goes with it.
  const choose = (scored: Scored[]) => {
    let chosen = { prior: RELIABILITY_PRIORS[0] as number, recall: -1, threshold: 0 };
    for (const prior of RELIABILITY_PRIORS) {
      const fit = fitThreshold(scored, prior);
      if (fit.recall > chosen.recall) chosen = { prior, recall: fit.recall, threshold: fit.threshold };
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
