/**
 * Series classification (docs/pipeline.md#classify): T1, T2, FLAIR, DTI, T1_CONTRAST, DWI, SWI or OTHER with a confidence,
 * human-readable reasons and a BIDS datatype/suffix. Browser-safe: no node:* imports.
 */
export type {
  BidsSuggestion,
  ClassifiedType,
  ClassifyOptions,
  SeriesAcquisition,
  SeriesClassification,
} from './types.ts';
export { classifySeries, isLowConfidence, LOW_CONFIDENCE_THRESHOLD } from './classify.ts';
export { acquisitionFromSidecar } from './from-sidecar.ts';
export { reviewStudy, type StudySeries } from './study.ts';
export { reviewHeaders } from './header-review.ts';
export { acquisitionFromDicom, acquisitionsFromDicomJson } from './from-dicom.ts';
