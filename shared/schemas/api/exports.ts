import { z } from 'zod';
import { JobSchema } from './jobs.ts';

/**
 * Server-side export of a stored dataset (docs/exports.md): a job that writes one ZIP in the studies bucket's exports
 * prefix, handed out through an expiring presigned link.
 */
export const EXPORT_FORMATS = ['bids', 'dicom', 'nifti', 'assets'] as const;
export const ExportFormatSchema = z.enum(EXPORT_FORMATS);
export type ExportFormat = z.infer<typeof ExportFormatSchema>;

/** POST /api/datasets/{id}/exports. */
export const CreateExportRequestSchema = z.object({ format: ExportFormatSchema });
export type CreateExportRequest = z.infer<typeof CreateExportRequestSchema>;

/** The ZIP of a finished export: a presigned link and when it stops working. */
export const ExportDownloadSchema = z.object({
  url: z.string(),
  expiresAt: z.string(),
  fileName: z.string(),
  byteSize: z.number().int().nonnegative(),
});
export type ExportDownload = z.infer<typeof ExportDownloadSchema>;

/** An export as its requester follows it: the job's progress, then the link. */
export const DatasetExportSchema = z.object({
  id: z.string(),
  datasetId: z.string(),
  format: ExportFormatSchema,
  job: JobSchema,
  /** Present once the job SUCCEEDED and while the ZIP is kept. */
  download: ExportDownloadSchema.nullable(),
});
export type DatasetExport = z.infer<typeof DatasetExportSchema>;
