import { getDatasetExport } from '#shared/domain/datasets/export-dataset.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler(
  'GET /api/datasets/{id}/exports/{exportId}',
  async ({ pathParameters }, caller, deps) =>
    getDatasetExport(pathParameters.id, pathParameters.exportId, caller, deps),
);
