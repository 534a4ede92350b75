import { setHospitalSettings } from '#shared/domain/settings/policies.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';
import { twoFactorPolicyOf } from '#functions/lib/two-factor.ts';

export const handler = httpHandler('PUT /api/hospital-admin/settings', async ({ body }, caller, deps) => {
  const saved = await setHospitalSettings(body, caller, deps);
  // Two-factor takes effect in this container at once, elsewhere within a minute (docs/domain.md#two-factor-policy).
  twoFactorPolicyOf(deps).forget(caller.hospitalId);
  return saved;
});
