import { listDatasets } from '#shared/domain/datasets/list-datasets.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/datasets', async ({ query }, caller, deps) =>
  listDatasets(query, caller, deps),
);
