import { describe, expect, it } from 'vitest';
import { DEFAULT_DEIDENTIFICATION_POLICY } from '#shared/schemas/api/hospital-admin.ts';
import {
  DEFAULT_HOSPITAL_POLICY,
  DEFAULT_NOTIFICATION_PREFERENCES,
  DEFAULT_SYSTEM_POLICY,
} from '#shared/schemas/api/policies.ts';
import {
  hasUnsavedChanges,
  lockedShareItems,
  numberOr,
  parseRecipientDomains,
  profileErrors,
  savedSettingsDraft,
  settingsReducer,
  withCritical,
  withScope,
  withWarning,
  type SettingsFormState,
} from '#web/features/settings/utils/settings-form.ts';
import { gbToTb, storagePercent } from '#web/lib/format.ts';
import { withDownloads } from '#web/lib/policy-edits.ts';
import { NORTHSIDE_PROFILE } from '#tests/helpers/fixtures.ts';

const PROFILE = NORTHSIDE_PROFILE;
const loaded: SettingsFormState = settingsReducer(undefined, {
  type: 'loaded',
  value: {
    profile: PROFILE,
    policy: DEFAULT_HOSPITAL_POLICY,
    deidentification: DEFAULT_DEIDENTIFICATION_POLICY,
    notifications: DEFAULT_NOTIFICATION_PREFERENCES,
  },
})!;

describe('hospital settings form', () => {
  it('shows the unsaved-changes banner after a change and none after Discard', () => {
    expect(hasUnsavedChanges(loaded)).toBe(false);
    const changed = settingsReducer(loaded, { type: 'profile', field: 'phone', value: '+1 312 555 0199' })!;
    expect(hasUnsavedChanges(changed)).toBe(true);
    expect(hasUnsavedChanges(settingsReducer(changed, { type: 'discard' })!)).toBe(false);
    expect(settingsReducer(undefined, { type: 'discard' })).toBeUndefined();
    const sms = settingsReducer(loaded, {
      type: 'notifications',
      value: { ...DEFAULT_NOTIFICATION_PREFERENCES, sms: true },
    })!;
    expect(hasUnsavedChanges(sms)).toBe(true);
  });

  it("gives the profile's validation messages in the product's words", () => {
    expect(profileErrors({ name: 'N', email: 'x', phone: '123', address: 'short', billingContact: 'nope' })).toEqual({
      name: 'Hospital name must be at least 2 characters',
      email: 'Invalid email address',
      phone: 'Phone number must be at least 10 digits',
      address: 'Address must be at least 10 characters',
      billingContact: 'Invalid billing contact email',
    });
    expect(profileErrors(PROFILE)).toEqual({});
  });

  it("loads the server's settings as the draft, with empty strings for profile fields never set", () => {
    const draft = savedSettingsDraft(
      {
        profile: { name: 'Northside General' },
        policy: DEFAULT_HOSPITAL_POLICY,
        system: DEFAULT_SYSTEM_POLICY,
        storageUsedBytes: 0,
        updatedAt: null,
        updatedByUserId: null,
      },
      DEFAULT_DEIDENTIFICATION_POLICY,
      DEFAULT_NOTIFICATION_PREFERENCES,
    );
    expect(draft.profile).toEqual({ name: 'Northside General', email: '', phone: '', address: '', billingContact: '' });
    expect(draft.policy).toBe(DEFAULT_HOSPITAL_POLICY);
    expect(draft.deidentification).toEqual({
      defaults: DEFAULT_DEIDENTIFICATION_POLICY.defaults,
      uploaderMayChange: DEFAULT_DEIDENTIFICATION_POLICY.uploaderMayChange,
    });
    expect(draft.notifications).toBe(DEFAULT_NOTIFICATION_PREFERENCES);
  });

  it('keeps a number field at its value while what is typed is not a number', () => {
    expect(numberOr('250', 100)).toBe(250);
    expect(numberOr('  ', 100)).toBe(100);
    expect(numberOr('12abc', 100)).toBe(100);
  });

  it('keeps critical from the warning value to 100 in steps of 5', () => {
    const raised = withWarning(DEFAULT_HOSPITAL_POLICY, 95);
    expect(raised.storageCompute.alertThresholds).toEqual({ warning: 95, critical: 95 });
    expect(withCritical(raised, 80).storageCompute.alertThresholds.critical).toBe(95);
    expect(withCritical(DEFAULT_HOSPITAL_POLICY, 97).storageCompute.alertThresholds.critical).toBe(95);
  });

  it('shows storage in TB with one decimal and the percent in use', () => {
    expect(gbToTb(5120)).toBe('5.0');
    expect(gbToTb(4300)).toBe('4.2');
    expect(storagePercent(512 * 1024 ** 3, 1024)).toBe(50);
  });

  it('keeps the downloads scope behind downloads ("Requires Downloads")', () => {
    expect(withScope(DEFAULT_HOSPITAL_POLICY, 'downloads', true)).toBe(DEFAULT_HOSPITAL_POLICY);
    const on = withScope(withDownloads(DEFAULT_HOSPITAL_POLICY, true), 'downloads', true);
    expect(on.patientShare.allowedScopes).toEqual(['viewer_only', 'screenshots', 'downloads']);
    expect(withDownloads(on, false).patientShare.allowedScopes).toEqual(['viewer_only', 'screenshots']);
  });

  it('locks the items the system maximums decide', () => {
    expect(lockedShareItems(DEFAULT_SYSTEM_POLICY)).toEqual({
      requireOTP: false,
      watermarkEnabled: false,
      downloadsEnabled: false,
    });
    const strict = {
      ...DEFAULT_SYSTEM_POLICY,
      patientShare: {
        ...DEFAULT_SYSTEM_POLICY.patientShare,
        requireOTP: true,
        downloadsEnabled: false,
        allowedScopes: [],
      },
    };
    expect(lockedShareItems(strict)).toEqual({ requireOTP: true, watermarkEnabled: false, downloadsEnabled: true });
  });
});

describe("the hospital's own e-mail domains (docs/domain.md#share-policy)", () => {
  it('reads domains as typed: commas, spaces or lines, a leading @ dropped, lower case, each once', () => {
    expect(parseRecipientDomains(' Northside.example, @clinic.northside.example\nnorthside.example ;; ')).toEqual([
      'northside.example',
      'clinic.northside.example',
    ]);
    expect(parseRecipientDomains('')).toEqual([]);
  });
});
