import { retryDataset } from '#shared/domain/datasets/retry-dataset.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('POST /api/datasets/{id}/retry', async ({ pathParameters }, caller, deps) =>
  retryDataset(pathParameters.id, caller, deps),
);
