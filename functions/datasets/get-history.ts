import { getHistory } from '#shared/domain/datasets/get-history.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/datasets/{id}/history', async ({ pathParameters }, caller, deps) =>
  getHistory(pathParameters.id, caller, deps),
);
