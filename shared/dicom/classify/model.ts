/**
 * The classifier's fitted parameters: everything that is learned from labelled series rather than taken from MR
 * physics or the BIDS standard. Keeping them in one object lets the evaluation refit them without the held-out
 * source (leave one source out), so a figure measured on a source never saw that source's labels.
 */
export type ClassifierModel = {
  /** Below this confidence a series is flagged for review, with descriptions and without. */
  lowConfidenceThreshold: { withDescriptions: number; withoutDescriptions: number };
};

/** Share of series the review flag may take at most, and the share of wrong answers it aims to catch. */
export const FLAG_BUDGET = 0.12;
export const FLAG_TARGET_RECALL = 0.9;

/**
 * The shipped model: fitClassifier (fit.ts) over every labelled protocol of both dev sets. The accuracy test refits it
 * and fails when these values drift from what the data gives.
 */
export const DEFAULT_MODEL: ClassifierModel = {
  lowConfidenceThreshold: { withDescriptions: 0.6, withoutDescriptions: 0.6 },
};

export function thresholdFor(model: ClassifierModel, options: { ignoreDescriptions?: boolean }): number {
  return options.ignoreDescriptions
    ? model.lowConfidenceThreshold.withoutDescriptions
    : model.lowConfidenceThreshold.withDescriptions;
}
