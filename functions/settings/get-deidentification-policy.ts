import { getDeidentificationPolicy } from '#shared/domain/settings/deidentification-policy.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/hospital-admin/deidentification-policy', async (_request, caller, deps) =>
  getDeidentificationPolicy(caller, deps),
);
