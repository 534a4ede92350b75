import { deleteHospital } from '#shared/domain/organisation/hospitals.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler(
  'DELETE /api/hospitals/{hospitalId}',
  async ({ pathParameters, body }, caller, deps) => deleteHospital(pathParameters.hospitalId, body, caller, deps),
);
