import { getHospitalSettings } from '#shared/domain/settings/policies.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/hospital-admin/settings', async (_request, caller, deps) =>
  getHospitalSettings(caller, deps),
);
