import { listRecycleBin } from '#shared/domain/datasets/recycle-bin.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/datasets/recycle-bin', async ({ query }, caller, deps) =>
  listRecycleBin(query, caller, deps),
);
