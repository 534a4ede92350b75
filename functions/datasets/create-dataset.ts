import { createDataset } from '#shared/domain/datasets/create-dataset.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('POST /api/datasets', async ({ body }, caller, deps) =>
  createDataset(body, caller, deps),
);
