import { setDeidentificationPolicy } from '#shared/domain/settings/deidentification-policy.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('PUT /api/hospital-admin/deidentification-policy', async ({ body }, caller, deps) =>
  setDeidentificationPolicy(body, caller, deps),
);
