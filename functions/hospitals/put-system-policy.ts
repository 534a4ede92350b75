import { setSystemPolicy } from '#shared/domain/policies/policies.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('PUT /api/system/policy', async ({ body }, caller, deps) =>
  setSystemPolicy(body.policy, caller, deps),
);
