/** The words of datasets and series: statuses, study types, classified types, assets, burned-in text. */

/** Pipeline order (docs/states.md#dataset-status); FAILED may follow any stage. */
export const DATASET_STATUSES = [
  'CREATED',
  'UPLOADING',
  'ANONYMIZING',
  'CLASSIFYING',
  'PROCESSING',
  'COMPLETE',
  'FAILED',
] as const;
export type DatasetStatus = (typeof DATASET_STATUSES)[number];

/** Status labels and the card progress bar (docs/states.md#labels-and-progress). */
export const DATASET_STATUS_LABELS: Record<DatasetStatus, string> = {
  CREATED: 'ready for upload',
  UPLOADING: 'Files are being uploaded',
  ANONYMIZING: 'Removing patient identifiers',
  CLASSIFYING: 'AI analysis in progress',
  PROCESSING: 'Final processing steps',
  COMPLETE: 'Ready for analysis',
  FAILED: 'Processing failed',
};
export const DATASET_STATUS_PROGRESS: Record<DatasetStatus, number> = {
  CREATED: 0,
  UPLOADING: 20,
  ANONYMIZING: 40,
  CLASSIFYING: 60,
  PROCESSING: 80,
  COMPLETE: 100,
  FAILED: 0,
};
export const ACTIVE_DATASET_STATUSES: readonly DatasetStatus[] = [
  'UPLOADING',
  'ANONYMIZING',
  'CLASSIFYING',
  'PROCESSING',
];

export const STUDY_TYPES = ['DIAGNOSTIC', 'FOLLOW_UP', 'SCREENING', 'EMERGENCY', 'RESEARCH'] as const;
export const URGENCIES = ['ROUTINE', 'URGENT', 'STAT', 'EMERGENCY'] as const;

export const CLASSIFIED_TYPES = ['T1', 'T2', 'FLAIR', 'DTI', 'T1_CONTRAST', 'DWI', 'SWI', 'OTHER'] as const;
export type ClassifiedType = (typeof CLASSIFIED_TYPES)[number];

export const ASSET_TYPES = ['VOLUME', 'SURFACE', 'TRACT', 'REPORT', 'THUMBNAIL'] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

/**
 * Why a series may carry text burned into its pixels, which de-identification of the header cannot remove:
 * BurnedInAnnotation (0028,0301) YES, a Secondary Capture SOP class (1.2.840.10008.5.1.4.1.1.7*), an Encapsulated
 * Document (1.2.840.10008.5.1.4.1.1.104.*) or an ImageType naming a screen save or a secondary image (PS3.3 C.7.6.1.1.2).
 */
export const BURNED_IN_TEXT_REASONS = [
  'BURNED_IN_ANNOTATION',
  'SECONDARY_CAPTURE',
  'ENCAPSULATED_DOCUMENT',
  'SCREEN_SAVE',
  'SECONDARY_IMAGE',
] as const;
export type BurnedInTextReason = (typeof BURNED_IN_TEXT_REASONS)[number];
export const BURNED_IN_TEXT_REASON_LABELS: Record<BurnedInTextReason, string> = {
  BURNED_IN_ANNOTATION: 'marked as having burned-in annotation',
  SECONDARY_CAPTURE: 'a secondary capture (screenshot)',
  ENCAPSULATED_DOCUMENT: 'an encapsulated document',
  SCREEN_SAVE: 'a screen save',
  SECONDARY_IMAGE: 'a secondary (derived) image',
};
