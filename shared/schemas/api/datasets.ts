import { z } from 'zod';
import { IdSchema, pageOf, pageTokenSchema, queryNumber } from './common.ts';
import {
  ASSET_TYPES,
  BURNED_IN_TEXT_REASONS,
  CLASSIFIED_TYPES,
  DATASET_STATUSES,
  STUDY_TYPES,
  URGENCIES,
} from '#shared/vocabulary/datasets.ts';
import type { AnonymizationOption, AnonymizationOptions } from '#shared/vocabulary/deidentification.ts';
import { RedactionRectangleSchema } from './redaction.ts';

export const DatasetStatusSchema = z.enum(DATASET_STATUSES);
export const StudyTypeSchema = z.enum(STUDY_TYPES);
export const UrgencySchema = z.enum(URGENCIES);
export const ClassifiedTypeSchema = z.enum(CLASSIFIED_TYPES);
export const AssetTypeSchema = z.enum(ASSET_TYPES);

/** De-identification options offered at upload, all off by default (docs/domain.md#options). */
export const AnonymizationOptionsSchema = z.object({
  retainPhysicianIdentity: z.boolean().default(false),
  retainInstitutionIdentity: z.boolean().default(false),
  retainUids: z.boolean().default(false),
  retainLongitudinalDates: z.boolean().default(false),
  retainPatientCharacteristics: z.boolean().default(false),
  /**
   * Private attributes: the safe list (Retain Safe Private, the vendor attributes diffusion and geometry need) is kept
   * by default, and `keepPrivate` keeps that list too. Every private attribute takes the explicit `keepAllPrivate`;
   * `removeAllPrivate` (the Basic Profile alone) wins over both. Booleans, so policies and reports read them as flags.
   */
  keepPrivate: z.boolean().default(false),
  keepAllPrivate: z.boolean().optional(),
  removeAllPrivate: z.boolean().optional(),
});

// The schema parses exactly the vocabulary's options, both ways.
export type AnonymizationSchemaIsVocabulary = [
  Expect<Equal<z.infer<typeof AnonymizationOptionsSchema>, AnonymizationOptions>>,
  Expect<Equal<AnonymizationOption, keyof typeof AnonymizationOptionsSchema.shape>>,
];
type Equal<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Expect<T extends true> = T;

export const BurnedInTextReasonSchema = z.enum(BURNED_IN_TEXT_REASONS);

/**
 * The options an uploader asks for: any subset. The server fills the rest from the hospital's de-identification
 * policy and refuses a value the policy does not let uploaders change.
 */
export const AnonymizationRequestSchema = z
  .object({
    retainPhysicianIdentity: z.boolean(),
    retainInstitutionIdentity: z.boolean(),
    retainUids: z.boolean(),
    retainLongitudinalDates: z.boolean(),
    retainPatientCharacteristics: z.boolean(),
    keepPrivate: z.boolean(),
  })
  .partial()
  // The hospital's policy, not the request, says which options are the uploader's (docs/api-contract.md#rules-between-fields).
  .meta({
    'x-rules': ["an option the hospital's de-identification policy does not let uploaders change keeps its value"],
  });
export type AnonymizationRequest = z.infer<typeof AnonymizationRequestSchema>;

/** A BIDS datatype and suffix, with the entities (acq, dir, echo, flip, mt, part, ce, rec, inv) the headers give. */
export const BidsSuggestionSchema = z.object({
  datatype: z.string(),
  suffix: z.string(),
  entities: z.record(z.string(), z.string()).optional(),
});

export const ClassificationSchema = z.object({
  classifiedType: ClassifiedTypeSchema,
  confidence: z.number().min(0).max(1),
  source: z.enum(['AI', 'MANUAL']),
  reasons: z.array(z.string()),
  bids: BidsSuggestionSchema,
  /** The model's own label, kept beside a manual override so real-world accuracy can be measured. */
  modelType: ClassifiedTypeSchema.optional(),
  modelConfidence: z.number().min(0).max(1).optional(),
  createdByUserId: z.string().optional(),
  createdAt: z.string(),
});
export type Classification = z.infer<typeof ClassificationSchema>;

/**
 * A series that may show patient text in its pixels is held out of conversion, thumbnails and the report until a
 * team lead or hospital admin releases it.
 */
export const BurnedInTextSchema = z.object({
  reasons: z.array(BurnedInTextReasonSchema).min(1),
  releasedAt: z.string().optional(),
  releasedByUserId: z.string().optional(),
  /** Set when it was released by redaction: the rectangles blanked in every frame (docs/domain.md#redaction). */
  redactions: z.array(RedactionRectangleSchema).optional(),
});
export type BurnedInText = z.infer<typeof BurnedInTextSchema>;

/** Held: flagged for burned-in text and not yet released. */
export function isHeldForBurnedInText(series: { burnedInText?: BurnedInText | undefined }): boolean {
  return series.burnedInText !== undefined && series.burnedInText.releasedAt === undefined;
}

export const SeriesSchema = z.object({
  id: IdSchema,
  datasetId: IdSchema,
  seriesInstanceUID: z.string(),
  description: z.string(),
  seriesNumber: z.number().int(),
  modality: z.string(),
  sliceCount: z.number().int().nonnegative(),
  sizeBytes: z.number().nonnegative(),
  selected: z.boolean(),
  lowConfidence: z.boolean().optional(),
  classification: ClassificationSchema.nullable(),
  burnedInText: BurnedInTextSchema.optional(),
  /**
   * Present when this series' branch of the pipeline failed: a reason a person can read (never the engine's text).
   * The other series complete and the dataset ends COMPLETE without this series' assets (docs/pipeline.md).
   */
  failureReason: z.string().optional(),
  createdAt: z.string(),
});
export type Series = z.infer<typeof SeriesSchema>;

export const ProcessedAssetSchema = z.object({
  id: IdSchema,
  datasetId: IdSchema,
  seriesId: z.string().optional(),
  type: AssetTypeSchema,
  label: z.string(),
  byteSize: z.number().nonnegative(),
  mimeType: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  /** Short-lived presigned GET URL, present only when the caller may read the asset. */
  url: z.string().optional(),
});
export type ProcessedAsset = z.infer<typeof ProcessedAssetSchema>;

export const LegalHoldSchema = z.object({
  reason: z.string(),
  since: z.string(),
  byUserId: z.string(),
  byName: z.string(),
});
export type LegalHold = z.infer<typeof LegalHoldSchema>;

export const DatasetSchema = z.object({
  id: IdSchema,
  hospitalId: IdSchema,
  teamId: z.string().nullable(),
  ownerUserId: z.string(),
  ownerName: z.string(),
  patientAlias: z.string(),
  studyType: StudyTypeSchema,
  urgency: UrgencySchema,
  studyDescription: z.string(),
  clinicalIndication: z.string(),
  orderingPhysician: z.string(),
  department: z.string(),
  /** The hospital's department chosen in the upload wizard; absent on datasets created before departments. */
  departmentId: z.string().nullable().optional(),
  consentObtained: z.boolean(),
  hipaaDisclosure: z.boolean(),
  researchConsent: z.boolean().optional(),
  anonymization: AnonymizationOptionsSchema,
  status: DatasetStatusSchema,
  failureReason: z.string().optional(),
  /** Uploaded files the pipeline rejected: their index in the upload and the per-file message. */
  fileErrors: z.array(z.object({ fileIndex: z.number().int().nonnegative(), message: z.string() })).optional(),
  sizeBytes: z.number().nonnegative(),
  fileCount: z.number().int().nonnegative(),
  seriesCount: z.number().int().nonnegative(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Present when the caller sees the dataset through a team share: what the share lets them do (docs/domain.md#shares). */
  sharedWithYou: z.array(z.enum(['view', 'download', 'export'])).optional(),
  /** Present while the dataset is under legal hold: never moved to the recycle bin nor purged (docs/domain.md#legal-hold). */
  legalHold: LegalHoldSchema.optional(),
});
export type Dataset = z.infer<typeof DatasetSchema>;

/** A dataset in the recycle bin (docs/domain.md#recycle-bin): who moved it there, why, and when it is purged. */
export const RecycleBinItemSchema = DatasetSchema.extend({
  deletedAt: z.string(),
  purgeAfter: z.string(),
  deletedByUserId: z.string(),
  deletedByName: z.string(),
  deletionReason: z.string(),
});
export type RecycleBinItem = z.infer<typeof RecycleBinItemSchema>;
export const RecycleBinPageSchema = pageOf(RecycleBinItemSchema);
export const ListRecycleBinQuerySchema = z.object({
  limit: queryNumber(z.number().int().min(1).max(100).default(50)),
  nextToken: pageTokenSchema(2000).optional(),
});

/** DELETE /api/datasets/{id}: why it is deleted, kept in the audit trail (our words, never patient data). */
export const DeleteDatasetRequestSchema = z.object({ reason: z.string().trim().min(1).max(500).optional() });

/** PUT /api/datasets/{id}/legal-hold. */
export const LegalHoldRequestSchema = z.object({
  on: z.boolean(),
  reason: z.string().trim().min(1, 'Required').max(500),
});

export const DatasetDetailSchema = DatasetSchema.extend({
  series: z.array(SeriesSchema),
  processedAssets: z.array(ProcessedAssetSchema),
  hospitalName: z.string().optional(),
});
export type DatasetDetail = z.infer<typeof DatasetDetailSchema>;

/** POST /api/datasets. `mrn` is never stored: the server derives `patientAlias` with a keyed hash per hospital. */
export const CreateDatasetRequestSchema = z.object({
  mrn: z.string().trim().min(1, 'Required').max(64),
  studyType: StudyTypeSchema,
  urgency: UrgencySchema.default('ROUTINE'),
  studyDescription: z.string().trim().min(1, 'Required').max(500),
  clinicalIndication: z.string().trim().min(1, 'Required').max(2000),
  orderingPhysician: z.string().trim().min(1, 'Required').max(200),
  department: z.string().trim().min(1, 'Required').max(200),
  /** A department of the caller's hospital (GET /api/departments); its name then replaces `department`. */
  departmentId: IdSchema.optional(),
  patientConsent: z.literal(true, { error: 'Required' }),
  hipaaDisclosure: z.literal(true, { error: 'Required' }),
  researchConsent: z.boolean().optional(),
  anonymization: AnonymizationRequestSchema.optional(),
});
export type CreateDatasetRequest = z.infer<typeof CreateDatasetRequestSchema>;

/** Page sizes of the datasets list (docs/screens.md): the site's choices, the only ones the API takes. */
export const DATASET_PAGE_SIZES = [6, 12, 24, 48] as const;
export const ListDatasetsQuerySchema = z.object({
  status: DatasetStatusSchema.optional(),
  search: z.string().max(200).optional(),
  limit: queryNumber(z.literal(DATASET_PAGE_SIZES).default(12)),
  nextToken: pageTokenSchema(2000).optional(),
});
export const DatasetPageSchema = pageOf(DatasetSchema);

export const ClassifySeriesRequestSchema = z.object({ classifiedType: ClassifiedTypeSchema });
export const SeriesSelectionRequestSchema = z.object({
  seriesSelections: z.array(z.object({ seriesId: IdSchema, selected: z.boolean() })).min(1),
});

/** PATCH /api/datasets/{id}: any subset of the patient context; consent cannot be withdrawn into a draft. */
export const UpdateDatasetRequestSchema = CreateDatasetRequestSchema.omit({
  patientConsent: true,
  hipaaDisclosure: true,
  anonymization: true,
  urgency: true,
})
  .partial()
  .extend({
    urgency: CreateDatasetRequestSchema.shape.urgency.removeDefault().optional(),
    anonymization: AnonymizationRequestSchema.optional(),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, 'Required')
  .meta({ minProperties: 1 });
export type UpdateDatasetRequest = z.infer<typeof UpdateDatasetRequestSchema>;
