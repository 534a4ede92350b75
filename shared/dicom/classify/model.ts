import fitted from './fitted-model.json' with { type: 'json' };

/**
 * The classifier's fitted parameters: everything that is learned from labelled series rather than taken from MR
 * physics or the BIDS standard. Keeping them in one object lets the evaluation refit them without the held-out
 * source (leave one source out), so a figure measured on a source never saw that source's labels.
 */
export type ClassifierModel = {
  /** Below this confidence a series is flagged for review, with descriptions and without. */
  lowConfidenceThreshold: { withDescriptions: number; withoutDescriptions: number };
  /**
   * For each decision (winning type, the rule that carried it, what the description said): [right, total] on the
   * labelled protocols. The confidence is this record, shrunk towards the evidence scores' own probability.
   */
  reliability: Record<string, [number, number]>;
  /**
   * How many series the evidence scores' own probability weighs against a decision's record, with descriptions and
   * without (each reading is calibrated apart).
   */
  reliabilityPrior: { withDescriptions: number; withoutDescriptions: number };
};

/** Candidate weights of the score's own probability against a decision's record (fit.ts picks one). */
export const RELIABILITY_PRIORS = [1, 3, 10, 30, 100] as const;

/** Share of all series the review flag may take at most (docs/classification.md#confidence-and-the-review-flag). */
export const REVIEW_LIMIT = 0.15;

/**
 * Candidate shares of series the threshold is fitted to flag. A held-out site's share lands on either side of the
 * fitted one, so the fit (fit.ts chooseBudget) keeps the candidate whose flags on training sources left out in turn
 * stay within REVIEW_LIMIT; the choice is made inside each leave-one-source-out fold, never on the evaluated source.
 */
export const FLAG_BUDGETS = [0.1, 0.11, 0.12, 0.13, 0.14, 0.15] as const;

/**
 * The shipped model: fitClassifier (fit.ts) over every labelled protocol of both dev sets, written by
 * `npx tsx bench/classify.ts --write-model`. The accuracy test refits it and fails when it drifts from what the data
 * gives.
 */
export const DEFAULT_MODEL: ClassifierModel = {
  lowConfidenceThreshold: { ...fitted.lowConfidenceThreshold },
  reliabilityPrior: { ...fitted.reliabilityPrior },
  reliability: Object.fromEntries(
    Object.entries(fitted.reliability as Record<string, number[]>).map(([decision, [right = 0, total = 0]]) => [
      decision,
      [right, total],
    ]),
  ),
};

export function priorFor(model: ClassifierModel, options: { ignoreDescriptions?: boolean }): number {
  return options.ignoreDescriptions
    ? model.reliabilityPrior.withoutDescriptions
    : model.reliabilityPrior.withDescriptions;
}

export function thresholdFor(model: ClassifierModel, options: { ignoreDescriptions?: boolean }): number {
  return options.ignoreDescriptions
    ? model.lowConfidenceThreshold.withoutDescriptions
    : model.lowConfidenceThreshold.withDescriptions;
}
