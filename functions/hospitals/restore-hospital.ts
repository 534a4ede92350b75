import { restoreHospital } from '#shared/domain/organisation/hospitals.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler(
  'POST /api/hospitals/{hospitalId}/restore',
  async ({ pathParameters }, caller, deps) => restoreHospital(pathParameters.hospitalId, caller, deps),
);
