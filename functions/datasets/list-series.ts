import { listSeries } from '#shared/domain/datasets/list-series.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/datasets/{id}/series', async ({ pathParameters }, caller, deps) =>
  listSeries(pathParameters.id, caller, deps),
);
