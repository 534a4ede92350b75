import { restoreDataset } from '#shared/domain/datasets/recycle-bin.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('POST /api/datasets/{id}/restore', async ({ pathParameters }, caller, deps) =>
  restoreDataset(pathParameters.id, caller, deps),
);
