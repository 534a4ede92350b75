import { getHospital } from '#shared/domain/organisation/hospitals.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/hospitals/{hospitalId}', async ({ pathParameters }, caller, deps) =>
  getHospital(pathParameters.hospitalId, caller, deps),
);
