import { updateDataset } from '#shared/domain/datasets/update-dataset.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('PATCH /api/datasets/{id}', async ({ pathParameters, body }, caller, deps) =>
  updateDataset(pathParameters.id, body, caller, deps),
);
