import { listAssets } from '#shared/domain/datasets/list-assets.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/datasets/{id}/assets', async ({ pathParameters }, caller, deps) =>
  listAssets(pathParameters.id, caller, deps),
);
