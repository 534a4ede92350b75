import { createTwoFactorPolicy, type TwoFactorPolicy } from '#shared/domain/settings/two-factor.ts';
import type { ServerDeps } from './server-deps.ts';

const policies = new WeakMap<Pick<ServerDeps, 'settings' | 'clock'>, TwoFactorPolicy>();

/**
 * This container's remembered two-factor flags over these deps (docs/domain.md#two-factor-policy): one per deps
 * object, so a test harness that swaps its deps starts afresh.
 */
export function twoFactorPolicyOf(deps: Pick<ServerDeps, 'settings' | 'clock'>): TwoFactorPolicy {
  let policy = policies.get(deps);
  if (!policy) {
    policy = createTwoFactorPolicy(deps);
    policies.set(deps, policy);
  }
  return policy;
}
