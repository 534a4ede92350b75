import { createHospital } from '#shared/domain/organisation/hospitals.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('POST /api/hospitals', async ({ body }, caller, deps) =>
  createHospital(body, caller, deps),
);
