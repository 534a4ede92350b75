import { startIndexBackfill } from '#shared/domain/intake/index-backfill.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('POST /api/integrations/dicomweb-index', async (_request, caller, deps) =>
  startIndexBackfill(caller, deps),
);
