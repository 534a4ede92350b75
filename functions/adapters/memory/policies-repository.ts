import type { DeidentificationPolicies, StoredDeidentificationPolicy } from '#shared/domain/settings/ports.ts';

/** The de-identification policy of each hospital, in memory. */
export function createMemoryPolicyRepository(): DeidentificationPolicies & {
  items: Map<string, StoredDeidentificationPolicy>;
} {
  const items = new Map<string, StoredDeidentificationPolicy>();
  return {
    items,
    get: async (hospitalId) => items.get(hospitalId),
    put: async (hospitalId, policy) => {
      items.set(hospitalId, policy);
    },
  };
}
