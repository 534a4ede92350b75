import { z } from 'zod';
import { DicomUidSchema, IdSchema } from './common.ts';

/** Wizard and enhanced-uploader limits (docs/domain.md#uploads). */
export const MAX_WIZARD_FILES = 500;
export const MAX_ENHANCED_FILES = 1000;
/** Policy default "max file size 500 MB". */
export const MAX_FILE_BYTES = 500 * 1024 * 1024;
/** S3 multipart minimum (except the last part). */
export const UPLOAD_PART_BYTES = 8 * 1024 * 1024;

/**
 * A path inside the picked folder, '/'-separated: never absolute (`/x`, `C:/x`, `\\x`), never climbing out (`..`), no
 * empty or `.` segments, no backslashes or control characters. It names no object (keys use the file index), but
 * clients mirror trees with it.
 */
export function isRelativeUploadPath(path: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters never belong in a relative path
  if (/[\u0000-\u001f\u007f\\]/.test(path) || /^[A-Za-z]:\//.test(path)) return false;
  return path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

export const UploadFileSchema = z.object({
  /** Relative path inside the picked folder; used only to mirror the tree, never stored as PHI. */
  path: z.string().min(1).max(1024).refine(isRelativeUploadPath, 'Invalid input'),
  sizeBytes: z.number().int().positive().max(MAX_FILE_BYTES),
  /** UIDs the client read from the file (PS3.5 9.1 syntax), to group files before the pipeline reads them itself. */
  studyInstanceUID: DicomUidSchema.optional(),
  seriesInstanceUID: DicomUidSchema.optional(),
  sopInstanceUID: DicomUidSchema.optional(),
});

/** POST /api/datasets/{id}/upload/session */
export const CreateUploadSessionRequestSchema = z.object({
  files: z.array(UploadFileSchema).min(1).max(MAX_ENHANCED_FILES),
});

export const UploadFileStateSchema = z.object({
  fileIndex: z.number().int().nonnegative(),
  path: z.string(),
  sizeBytes: z.number().int(),
  partCount: z.number().int().positive(),
  /** Parts S3 already holds (from ListParts): a resumed client skips them. */
  completedParts: z.array(z.object({ partNumber: z.number().int(), etag: z.string() })),
  status: z.enum(['PENDING', 'COMPLETE']),
});

export const UploadSessionSchema = z.object({
  sessionId: IdSchema,
  datasetId: IdSchema,
  partBytes: z.number().int(),
  status: z.enum(['OPEN', 'COMPLETE', 'ABORTED']),
  files: z.array(UploadFileStateSchema),
  createdAt: z.string(),
});
export type UploadSession = z.infer<typeof UploadSessionSchema>;

/** POST /api/uploads/{sessionId}/files/{fileIndex}/parts : presigned PUT URLs for the asked part numbers. */
export const PartUrlsRequestSchema = z.object({
  partNumbers: z.array(z.number().int().min(1).max(10_000)).min(1).max(100),
});
export const PartUrlsResponseSchema = z.object({
  urls: z.array(z.object({ partNumber: z.number().int(), url: z.string() })),
});

/** POST /api/uploads/{sessionId}/files/{fileIndex}/complete */
export const CompleteFileRequestSchema = z.object({
  parts: z.array(z.object({ partNumber: z.number().int().min(1), etag: z.string().min(1) })).min(1),
});
