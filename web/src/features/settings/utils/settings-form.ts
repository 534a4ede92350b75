import type { DeidentificationPolicy } from '#shared/schemas/api/hospital-admin.ts';
import {
  HospitalProfileSchema,
  SHARE_SCOPES,
  THRESHOLD_MAX,
  THRESHOLD_STEP,
  type HospitalProfile,
  type HospitalSettings,
  type NotificationPreferences,
  type Policy,
  type ShareScope,
} from '#shared/schemas/api/policies.ts';
import { firstIssueByField } from '#web/lib/form-errors.ts';

/**
 * What the hospital settings page edits: the profile, the hospital's own policy, its de-identification policy and the
 * admin's notification preferences (docs/screens.md#hospital-settings-page).
 */
export type SettingsDraft = {
  profile: HospitalProfile;
  policy: Policy;
  deidentification: DeidentificationPolicy;
  /** The admin's own notification preferences (the notifications tab). */
  notifications: NotificationPreferences;
};

export type SettingsFormState = { saved: SettingsDraft; draft: SettingsDraft };

export type SettingsAction =
  | { type: 'loaded'; value: SettingsDraft }
  | { type: 'profile'; field: keyof HospitalProfile; value: string }
  | { type: 'policy'; change: (policy: Policy) => Policy }
  | { type: 'deidentification'; value: DeidentificationPolicy }
  | { type: 'notifications'; value: NotificationPreferences }
  | { type: 'discard' };

/** Undefined until the settings are loaded; every edit before that is ignored. */
export function settingsReducer(
  state: SettingsFormState | undefined,
  action: SettingsAction,
): SettingsFormState | undefined {
  if (action.type === 'loaded') return { saved: action.value, draft: action.value };
  if (!state) return state;
  switch (action.type) {
    case 'profile':
      return { ...state, draft: { ...state.draft, profile: { ...state.draft.profile, [action.field]: action.value } } };
    case 'policy':
      return { ...state, draft: { ...state.draft, policy: action.change(state.draft.policy) } };
    case 'deidentification':
      return { ...state, draft: { ...state.draft, deidentification: action.value } };
    case 'notifications':
      return { ...state, draft: { ...state.draft, notifications: action.value } };
    case 'discard':
      return { ...state, draft: state.saved };
  }
}

/** The form's state as the server holds it. */
export function savedSettingsDraft(
  settings: HospitalSettings,
  deid: DeidentificationPolicy,
  notifications: NotificationPreferences,
): SettingsDraft {
  return {
    profile: profileDraft(settings.profile),
    policy: settings.policy,
    deidentification: { defaults: deid.defaults, uploaderMayChange: deid.uploaderMayChange },
    notifications,
  };
}

/** A number field's value: what was typed when it is a number, else the value it had (a cleared field keeps it). */
export function numberOr(text: string, fallback: number): number {
  return text.trim() === '' || Number.isNaN(Number(text)) ? fallback : Number(text);
}

/** "You have unsaved changes": the draft differs from what the server holds. */
export function hasUnsavedChanges(state: SettingsFormState): boolean {
  return JSON.stringify(state.draft) !== JSON.stringify(state.saved);
}

/** Field messages of the profile form, in the product's words. */
export function profileErrors(profile: HospitalProfile): Partial<Record<keyof HospitalProfile, string>> {
  const result = HospitalProfileSchema.safeParse(profile);
  if (result.success) return {};
  return firstIssueByField<keyof HospitalProfile>(result.error);
}

/** A profile from what the server holds, with empty strings where a field was never set. */
export function profileDraft(profile: Partial<HospitalProfile> & { name: string }): HospitalProfile {
  return {
    name: profile.name,
    email: profile.email ?? '',
    phone: profile.phone ?? '',
    address: profile.address ?? '',
    billingContact: profile.billingContact ?? '',
  };
}

/** Moving the warning slider keeps critical at or above it (critical runs from the warning value to 100). */
export function withWarning(policy: Policy, warning: number): Policy {
  const { critical } = policy.storageCompute.alertThresholds;
  return {
    ...policy,
    storageCompute: {
      ...policy.storageCompute,
      alertThresholds: { warning, critical: Math.min(THRESHOLD_MAX, Math.max(critical, warning)) },
    },
  };
}

export function withCritical(policy: Policy, critical: number): Policy {
  const { warning } = policy.storageCompute.alertThresholds;
  const stepped = Math.round(critical / THRESHOLD_STEP) * THRESHOLD_STEP;
  return {
    ...policy,
    storageCompute: {
      ...policy.storageCompute,
      alertThresholds: { warning, critical: Math.min(THRESHOLD_MAX, Math.max(warning, stepped)) },
    },
  };
}

export function withScope(policy: Policy, scope: ShareScope, on: boolean): Policy {
  const share = policy.patientShare;
  if (scope === 'downloads' && on && !share.downloadsEnabled) return policy;
  const scopes = new Set(share.allowedScopes);
  if (on) scopes.add(scope);
  else scopes.delete(scope);
  return { ...policy, patientShare: { ...share, allowedScopes: SHARE_SCOPES.filter((s) => scopes.has(s)) } };
}

/**
 * Items the system maximums lock ("Locked by admin"): a safeguard the super admin requires cannot be turned off, a
 * permission the super admin withholds cannot be turned on.
 */
export function lockedShareItems(system: Policy): {
  requireOTP: boolean;
  watermarkEnabled: boolean;
  downloadsEnabled: boolean;
} {
  return {
    requireOTP: system.patientShare.requireOTP,
    watermarkEnabled: system.patientShare.watermarkEnabled,
    downloadsEnabled: !system.patientShare.downloadsEnabled,
  };
}

/**
 * The hospital's own e-mail domains as typed (commas, spaces or lines between them; a leading "@" is dropped):
 * lower case, each once (docs/domain.md#share-policy).
 */
export function parseRecipientDomains(text: string): string[] {
  const domains = text
    .split(/[\s,;]+/)
    .map((d) => d.trim().replace(/^@/, '').toLowerCase())
    .filter((d) => d.length > 0);
  return [...new Set(domains)];
}
