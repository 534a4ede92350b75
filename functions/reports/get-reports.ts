import { getReports } from '#shared/domain/reports/reports.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/reports', async ({ query }, caller, deps) =>
  getReports(query, caller, deps),
);
