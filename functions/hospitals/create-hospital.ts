import { onboardHospital } from '#shared/domain/organisation/onboard-hospital.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('POST /api/hospitals', async ({ body }, caller, deps) =>
  onboardHospital(body, caller, deps),
);
