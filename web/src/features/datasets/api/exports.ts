import {
  CreateExportRequestSchema,
  DatasetExportSchema,
  type DatasetExport,
  type ExportFormat,
} from '#shared/schemas/api/exports.ts';
import { JobAcceptedSchema } from '#shared/schemas/api/jobs.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { isFinished, JOB_POLL_MS } from '#web/lib/jobs.ts';

const exportsPath = (datasetId: string) => `/api/datasets/${encodeURIComponent(datasetId)}/exports`;

/** Starts an export of the dataset (docs/exports.md); the answer is its job, queued. */
export function startExport(datasetId: string, format: ExportFormat) {
  return apiRequest(exportsPath(datasetId), JobAcceptedSchema, {
    method: 'POST',
    body: CreateExportRequestSchema.parse({ format }),
  });
}

export function fetchExport(datasetId: string, exportId: string): Promise<DatasetExport> {
  return apiRequest(`${exportsPath(datasetId)}/${encodeURIComponent(exportId)}`, DatasetExportSchema);
}

/** Polls the export until its job has ended, reporting each read, as the other job screens do (docs/jobs.md). */
export async function followExport(
  datasetId: string,
  exportId: string,
  onUpdate: (current: DatasetExport) => void,
  pollMs = JOB_POLL_MS,
): Promise<DatasetExport> {
  let current = await fetchExport(datasetId, exportId);
  onUpdate(current);
  while (!isFinished(current.job)) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    current = await fetchExport(datasetId, exportId);
    onUpdate(current);
  }
  return current;
}
