import { getCompliance } from '#shared/domain/audit/compliance.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/compliance', async ({ query }, caller, deps) =>
  getCompliance(query, caller, deps),
);
