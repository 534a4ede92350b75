import { updateHospital } from '#shared/domain/organisation/hospitals.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler(
  'PATCH /api/hospitals/{hospitalId}',
  async ({ pathParameters, body }, caller, deps) => updateHospital(pathParameters.hospitalId, body, caller, deps),
);
