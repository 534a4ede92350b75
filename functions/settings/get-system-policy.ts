import { getSystemPolicy } from '#shared/domain/settings/policies.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/system/policy', async (_request, caller, deps) =>
  getSystemPolicy(caller, deps),
);
