import { getDataset } from '#shared/domain/datasets/get-dataset.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/datasets/{id}', async ({ pathParameters }, caller, deps) =>
  getDataset(pathParameters.id, caller, deps),
);
