import type { DeidentificationPolicy } from '#shared/schemas/api/hospital-admin.ts';

export type StoredDeidentificationPolicy = DeidentificationPolicy & { updatedAt: string; updatedByUserId: string };

/** One de-identification policy item per hospital. */
export type DeidentificationPolicies = {
  get(hospitalId: string): Promise<StoredDeidentificationPolicy | undefined>;
  put(hospitalId: string, policy: StoredDeidentificationPolicy): Promise<void>;
};
