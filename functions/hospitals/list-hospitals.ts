import { listHospitals } from '#shared/domain/organisation/hospitals.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/hospitals', async ({ query }, caller, deps) =>
  listHospitals(query, caller, deps),
);
