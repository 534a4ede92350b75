import { startDatasetExport } from '#shared/domain/datasets/export-dataset.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('POST /api/datasets/{id}/exports', async ({ pathParameters, body }, caller, deps) =>
  startDatasetExport(pathParameters.id, body, caller, deps),
);
