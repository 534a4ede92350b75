import { describe, expect, it } from 'vitest';
import {
  assertNotLessRestrictive,
  lessRestrictiveFields,
  resolvePolicy,
  TEAM_RULES,
} from '#shared/domain/settings/resolve.ts';
import {
  DEFAULT_HOSPITAL_POLICY,
  DEFAULT_SYSTEM_POLICY,
  PatientShareDefaultsSchema,
  PolicySchema,
  type Policy,
} from '#shared/schemas/api/policies.ts';

const hospital = (change: (p: Policy) => Policy = (p) => p) => change(structuredClone(DEFAULT_HOSPITAL_POLICY));

describe('policy schemas and defaults', () => {
  it("holds the record's defaults and accepts them", () => {
    expect(PolicySchema.parse(DEFAULT_HOSPITAL_POLICY)).toEqual(DEFAULT_HOSPITAL_POLICY);
    expect(PolicySchema.safeParse(DEFAULT_SYSTEM_POLICY).success).toBe(true);
    expect(DEFAULT_HOSPITAL_POLICY.storageCompute).toEqual({
      storageCapGB: 5120,
      computeThrottles: { queueConcurrency: 10 },
      alertThresholds: { warning: 80, critical: 90 },
    });
    expect(DEFAULT_HOSPITAL_POLICY.patientShare).toMatchObject({
      requireOTP: true,
      defaultExpiryHours: 168,
      maxOpens: 3,
    });
  });

  it('refuses thresholds off the 5-step sliders and a critical below the warning', () => {
    const bad = (warning: number, critical: number) =>
      PolicySchema.safeParse(
        hospital((p) => ({ ...p, storageCompute: { ...p.storageCompute, alertThresholds: { warning, critical } } })),
      ).success;
    expect(bad(45, 90)).toBe(false);
    expect(bad(82, 90)).toBe(false);
    expect(bad(90, 85)).toBe(false);
    expect(bad(90, 90)).toBe(true);
  });

  it('refuses the downloads scope without downloads ("Requires Downloads") and PHI in messages off', () => {
    const share = { ...DEFAULT_HOSPITAL_POLICY.patientShare, allowedScopes: ['downloads'] };
    const result = PatientShareDefaultsSchema.safeParse(share);
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.message).toBe('Requires Downloads');
    expect(PatientShareDefaultsSchema.safeParse({ ...share, downloadsEnabled: true }).success).toBe(true);
    const phi = hospital((p) => ({
      ...p,
      compliance: { ...p.compliance, dlpRules: { blockPHIInMessages: false as true } },
    }));
    expect(PolicySchema.safeParse(phi).success).toBe(false);
  });
});

describe('resolvePolicy: system → hospital → team, the stricter wins', () => {
  it('clamps a hospital under system maximums lowered after it set its own', () => {
    const system = {
      ...DEFAULT_SYSTEM_POLICY,
      storageCompute: { ...DEFAULT_SYSTEM_POLICY.storageCompute, storageCapGB: 100 },
    };
    const resolved = resolvePolicy({ system, hospital: hospital() });
    expect(resolved.storageCompute.storageCapGB).toBe(100);
    expect(resolved.maxFileSizeMB).toBe(500);
  });

  it('applies team overrides only where they are stricter, and keeps the rest inherited', () => {
    const resolved = resolvePolicy({
      system: DEFAULT_SYSTEM_POLICY,
      hospital: hospital(),
      team: {
        dataRetentionDays: 30,
        maxFileSizeMB: 9999,
        allowedFormats: ['dcm', 'nii'],
        patientShare: { maxOpens: -1, defaultExpiryHours: 24, requireOTP: false },
      },
    });
    expect(resolved.dataRetentionDays).toBe(30);
    expect(resolved.maxFileSizeMB).toBe(500);
    expect(resolved.allowedFormats).toEqual(['dcm', 'nii']);
    expect(resolved.patientShare.maxOpens).toBe(3);
    expect(resolved.patientShare.defaultExpiryHours).toBe(24);
    expect(resolved.patientShare.requireOTP).toBe(true);
  });

  it('treats unlimited opens (-1) as the loosest value', () => {
    const open = hospital((p) => ({ ...p, patientShare: { ...p.patientShare, maxOpens: -1 } }));
    expect(resolvePolicy({ system: DEFAULT_SYSTEM_POLICY, hospital: open }).patientShare.maxOpens).toBe(-1);
    expect(
      resolvePolicy({ system: DEFAULT_SYSTEM_POLICY, hospital: open, team: { patientShare: { maxOpens: 5 } } })
        .patientShare.maxOpens,
    ).toBe(5);
  });

  it('drops the downloads scope when a level above turns downloads off', () => {
    const loose = hospital((p) => ({
      ...p,
      patientShare: { ...p.patientShare, downloadsEnabled: true, allowedScopes: ['viewer_only', 'downloads'] },
    }));
    const resolved = resolvePolicy({
      system: DEFAULT_SYSTEM_POLICY,
      hospital: loose,
      team: { patientShare: { downloadsEnabled: false } },
    });
    expect(resolved.patientShare.allowedScopes).toEqual(['viewer_only']);
  });
});

describe('a lower level may only be more restrictive', () => {
  it('names every looser field of a hospital policy against the system maximums', () => {
    const loose = hospital((p) => ({
      ...p,
      maxFileSizeMB: 4096,
      storageCompute: { ...p.storageCompute, computeThrottles: { queueConcurrency: 50 } },
    }));
    expect(lessRestrictiveFields(loose, DEFAULT_SYSTEM_POLICY).map((r) => r.label)).toEqual([
      'Max file size',
      'Queue concurrency',
    ]);
    expect(() => assertNotLessRestrictive(loose, DEFAULT_SYSTEM_POLICY, 'system maximums')).toThrow(
      expect.objectContaining({
        code: 'POLICY_LESS_RESTRICTIVE',
        values: { field: 'Max file size', level: 'system maximums' },
      }),
    );
    expect(() => assertNotLessRestrictive(hospital(), DEFAULT_SYSTEM_POLICY, 'system maximums')).not.toThrow();
  });

  it('refuses a team that loosens share expiry, OTP or formats, and accepts a stricter one', () => {
    const inherited = hospital();
    const refuse = (overrides: Parameters<typeof lessRestrictiveFields>[0]) =>
      lessRestrictiveFields(overrides, inherited, TEAM_RULES).map((r) => r.label);
    expect(refuse({ patientShare: { defaultExpiryHours: 720 } })).toEqual(['Share expiry']);
    expect(refuse({ patientShare: { requireOTP: false } })).toEqual(['Require OTP']);
    expect(refuse({ shareWithExternal: true, requireApproval: false })).toEqual([
      'Share with external',
      'Require approval',
    ]);
    expect(refuse({ patientShare: { maxOpens: -1 } })).toEqual(['Max opens']);
    expect(refuse({ dataRetentionDays: 30, patientShare: { defaultExpiryHours: 24, maxOpens: 1 } })).toEqual([]);
  });
});
