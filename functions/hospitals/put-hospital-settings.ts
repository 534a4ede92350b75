import { setHospitalSettings } from '#shared/domain/policies/policies.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('PUT /api/hospital-admin/settings', async ({ body }, caller, deps) =>
  setHospitalSettings(body, caller, deps),
);
