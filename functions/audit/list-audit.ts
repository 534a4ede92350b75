import { searchAudit } from '#shared/domain/audit/audit-trail.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/audit', async ({ query }, caller, deps) =>
  searchAudit(query, caller, deps),
);
