import { z } from 'zod';
import { DicomUidSchema, IdSchema } from './common.ts';
import { FileFormatSchema } from './policies.ts';

/**
 * Wizard and enhanced-uploader limits (docs/domain.md#uploads): hospital studies run to 5,000 files, which the packed
 * upload sends at the cost of their bytes.
 */
export const MAX_WIZARD_FILES = 500;
export const MAX_ENHANCED_FILES = 5000;
/** Policy default "max file size 500 MB" (the policy in force decides per hospital and team). */
export const MAX_FILE_BYTES = 500 * 1024 * 1024;
/** S3's largest object (5 TiB): what a request may declare at all; the policy in force refuses far smaller files. */
export const MAX_DECLARABLE_FILE_BYTES = 5 * 1024 ** 4;

/**
 * What the server knows of a file instead of its name: the client's hex SHA-256 of a salt it keeps, the file's relative
 * path and its size (shared/client/file-key.ts). Only such a key passes, so no path or file name (PACS exports name
 * folders after patients) reaches the table, a log or an object key; the client alone can match re-picked files to it.
 */
export const FileKeySchema = z.string().regex(/^[0-9a-f]{64}$/, 'Invalid input');

/** A file of a new upload: its key and size, UIDs as grouping hints; any other field (an older client's `path`) is refused. */
export const UploadFileSchema = z.strictObject({
  fileKey: FileKeySchema,
  sizeBytes: z.number().int().positive().max(MAX_DECLARABLE_FILE_BYTES),
  /** The file's format as the client sees it (extension, or dicom for a DICM preamble); absent = dicom. */
  format: FileFormatSchema.optional(),
  /** UIDs the client read from the file (PS3.5 9.1 syntax), to group files before the pipeline reads them itself. */
  studyInstanceUID: DicomUidSchema.optional(),
  seriesInstanceUID: DicomUidSchema.optional(),
  sopInstanceUID: DicomUidSchema.optional(),
});

/** POST /api/datasets/{id}/upload/session */
export const CreateUploadSessionRequestSchema = z.object({
  files: z.array(UploadFileSchema).min(1).max(MAX_ENHANCED_FILES),
});

/** A declared file of an open session, in archive order: what a client matches re-picked files against to resume. */
export const UploadSessionFileSchema = z.object({
  fileIndex: z.number().int().nonnegative(),
  fileKey: z.string(),
  sizeBytes: z.number().int(),
});

/**
 * An upload session: the study packed as one archive (docs/domain.md#upload-sessions), `archiveBytes` long, sent as
 * `partCount` parts of `partBytes` (the last one shorter). `completedParts` are the parts the storage already holds.
 */
export const UploadSessionSchema = z.object({
  sessionId: IdSchema,
  datasetId: IdSchema,
  status: z.enum(['OPEN', 'COMPLETE', 'ABORTED']),
  archiveBytes: z.number().int().positive(),
  partBytes: z.number().int().positive(),
  partCount: z.number().int().positive(),
  completedParts: z.array(z.number().int().positive()),
  files: z.array(UploadSessionFileSchema),
  createdAt: z.string(),
});
export type UploadSession = z.infer<typeof UploadSessionSchema>;

/** POST /api/uploads/{sessionId}/parts : presigned PUT URLs for the asked part numbers of the session's archive. */
export const PartUrlsRequestSchema = z.object({
  partNumbers: z.array(z.number().int().min(1).max(10_000)).min(1).max(100),
});
export const PartUrlsResponseSchema = z.object({
  urls: z.array(z.object({ partNumber: z.number().int(), url: z.string() })),
});
