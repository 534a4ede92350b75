import { deleteDataset } from '#shared/domain/datasets/delete-dataset.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('DELETE /api/datasets/{id}', async ({ pathParameters, body }, caller, deps) =>
  deleteDataset(pathParameters.id, body, caller, deps),
);
