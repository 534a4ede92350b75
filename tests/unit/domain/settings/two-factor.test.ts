import { describe, expect, it } from 'vitest';
import { DEFAULT_HOSPITAL_POLICY, DEFAULT_SYSTEM_POLICY, type Policy } from '#shared/schemas/api/policies.ts';
import { createTwoFactorPolicy, TWO_FACTOR_POLICY_TTL_MS } from '#shared/domain/settings/two-factor.ts';
import { createMemorySettingsStore } from '#functions/adapters/memory/index.ts';

const requiring = (policy: Policy, required: boolean): Policy => ({
  ...policy,
  security: { ...policy.security, twoFactorRequired: required },
});
const stored = (value: Policy) => ({ value, updatedAt: '', updatedByUserId: 'u' });

function setup() {
  const settings = createMemorySettingsStore({ hospitals: ['h1', 'h2'] });
  let reads = 0;
  const counted = {
    ...settings,
    getHospitalPolicy: async (h: string) => {
      reads += 1;
      return settings.getHospitalPolicy(h);
    },
  };
  let now = Date.parse('2026-02-01T10:00:00.000Z');
  const clock = { now: () => new Date(now).toISOString() };
  const policy = createTwoFactorPolicy({ settings: counted, clock });
  return { settings, policy, reads: () => reads, advance: (ms: number) => (now += ms) };
}

describe('two-factor policy per hospital', () => {
  it("resolves the hospital's flag under the system maximum: either level requiring it requires it", async () => {
    const { settings, policy } = setup();
    expect(await policy.requiredFor('h1')).toBe(false);
    await settings.putHospitalPolicy('h1', stored(requiring(DEFAULT_HOSPITAL_POLICY, true)));
    policy.forget('h1');
    expect(await policy.requiredFor('h1')).toBe(true);
    expect(await policy.requiredFor('h2')).toBe(false);
    await settings.putSystemPolicy(stored(requiring(DEFAULT_SYSTEM_POLICY, true)));
    policy.forget();
    expect(await policy.requiredFor('h2')).toBe(true);
  });

  it('reads the policy once per hospital for a minute, then again', async () => {
    const { settings, policy, reads, advance } = setup();
    await policy.requiredFor('h1');
    await policy.requiredFor('h1');
    expect(reads()).toBe(1);
    await settings.putHospitalPolicy('h1', stored(requiring(DEFAULT_HOSPITAL_POLICY, true)));
    expect(await policy.requiredFor('h1')).toBe(false);
    advance(TWO_FACTOR_POLICY_TTL_MS);
    expect(await policy.requiredFor('h1')).toBe(true);
    expect(reads()).toBe(2);
  });
});
