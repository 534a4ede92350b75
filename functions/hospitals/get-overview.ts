import { hospitalAdminOverview } from '#shared/domain/organisation/hospitals.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/hospital-admin/overview', async (_request, caller, deps) =>
  hospitalAdminOverview(caller, deps),
);
