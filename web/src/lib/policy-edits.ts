import type { Policy } from '#shared/schemas/api/policies.ts';

/** Turning downloads off also drops the downloads scope ("Requires Downloads"). */
export function withDownloads(policy: Policy, downloadsEnabled: boolean): Policy {
  const share = policy.patientShare;
  return {
    ...policy,
    patientShare: {
      ...share,
      downloadsEnabled,
      allowedScopes: downloadsEnabled ? share.allowedScopes : share.allowedScopes.filter((s) => s !== 'downloads'),
    },
  };
}
