import { classifySeries } from './classify.ts';
import type { Protocol } from './evaluation.ts';
import { FLAG_BUDGET, FLAG_TARGET_RECALL, type ClassifierModel } from './model.ts';

/**
 * The lowest confidence threshold that flags FLAG_TARGET_RECALL of the wrong answers on `protocols`, but never more
 * than FLAG_BUDGET of all of them. Thresholds are rounded to 0.01 so the shipped value is stable.
 */
function fitThreshold(protocols: Protocol[], ignoreDescriptions: boolean): number {
  const scored = protocols.map((protocol) => {
    const result = classifySeries(protocol.acquisition, { ignoreDescriptions });
    return { confidence: result.confidence, wrong: result.classifiedType !== protocol.label };
  });
  const wrong = scored.filter((item) => item.wrong).length;
  let best = 0;
  for (let step = 1; step <= 100; step += 1) {
    const threshold = step / 100;
    const flagged = scored.filter((item) => item.confidence < threshold);
    if (flagged.length > FLAG_BUDGET * scored.length) break;
    best = threshold;
    if (flagged.filter((item) => item.wrong).length >= FLAG_TARGET_RECALL * wrong) break;
  }
  return best;
}

/** Fits the classifier's learned parameters on labelled protocols (evaluable ones only). */
export function fitClassifier(protocols: Protocol[]): ClassifierModel {
  const evaluable = protocols.filter((protocol) => protocol.evaluable);
  return {
    lowConfidenceThreshold: {
      withDescriptions: fitThreshold(evaluable, false),
      withoutDescriptions: fitThreshold(evaluable, true),
    },
  };
}
