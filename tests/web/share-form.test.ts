import { describe, expect, it } from 'vitest';
import { DEFAULT_HOSPITAL_POLICY } from '#shared/schemas/api/policies.ts';
import { defaultForm, expiryOptions, maxOpensOptions, opensLabel } from '#web/features/shares/utils/share-form.ts';

describe('patient share form', () => {
  it('offers only the expiry and max-opens options within the policy in force, starting at its defaults', () => {
    // Prepare
    const limits = { ...DEFAULT_HOSPITAL_POLICY.patientShare, defaultExpiryHours: 72, maxOpens: 5 };
    // Act
    const expiry = expiryOptions(limits).map((o) => o.label);
    const opens = maxOpensOptions(limits).map(opensLabel);
    const form = defaultForm(limits);
    // Assess
    expect(expiry).toEqual(['24 h', '3 days']);
    expect(opens).toEqual(['1', '3', '5']);
    expect(form).toMatchObject({ expiresInHours: 72, maxOpens: 5, watermark: true, allowDownloads: false });
    expect(maxOpensOptions({ ...limits, maxOpens: -1 }).map(opensLabel)).toContain('Unlimited');
  });
});
