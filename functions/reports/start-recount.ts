import { startReportRecount } from '#shared/domain/reports/backfill.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('POST /api/reports/recount', async (_request, caller, deps) =>
  startReportRecount(caller, deps),
);
