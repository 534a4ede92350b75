import type { Clock } from '#shared/domain/ports.ts';
import { policyFor, type PolicyDeps } from './policies.ts';

/** How long one container trusts a hospital's resolved two-factor flag (docs/domain.md#two-factor-policy). */
export const TWO_FACTOR_POLICY_TTL_MS = 60_000;

export type TwoFactorPolicy = {
  /** Whether the policy in force for the hospital requires every user to sign in with a second factor. */
  requiredFor(hospitalId: string): Promise<boolean>;
  /** Drops what this container remembers (a policy saved here takes effect here at once). */
  forget(hospitalId?: string): void;
};

/**
 * The hospital's `security.twoFactorRequired`, resolved through policyFor (the system maximum and the hospital's
 * own; "require" wins) and remembered per container for a short time, so a request reads at most the two policy
 * items once a minute per hospital, and usually nothing (docs/domain.md#two-factor-policy).
 */
export function createTwoFactorPolicy(
  deps: PolicyDeps & { clock: Pick<Clock, 'now'> },
  ttlMs = TWO_FACTOR_POLICY_TTL_MS,
): TwoFactorPolicy {
  const known = new Map<string, { required: boolean; until: number }>();
  const nowMs = () => Date.parse(deps.clock.now());
  return {
    async requiredFor(hospitalId) {
      const hit = known.get(hospitalId);
      if (hit && hit.until > nowMs()) return hit.required;
      const required = (await policyFor(hospitalId, null, deps)).security.twoFactorRequired;
      known.set(hospitalId, { required, until: nowMs() + ttlMs });
      return required;
    },
    forget(hospitalId) {
      if (hospitalId) known.delete(hospitalId);
      else known.clear();
    },
  };
}
