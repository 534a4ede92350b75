import {
  SHARE_EXPIRY_OPTIONS,
  UNLIMITED_OPENS,
  type Policy,
  type TeamPolicyOverrides,
} from '#shared/schemas/api/policies.ts';

/**
 * The team's patient-share overrides on the Settings tab (docs/screens.md#teams-page): each field either inherits
 * the hospital's value (`undefined`) or overrides it. The server refuses an override looser than the hospital's
 * (POLICY_LESS_RESTRICTIVE); the form shows the hospital's value beside each field.
 */
export type ShareOverrideForm = {
  defaultExpiryHours?: number;
  maxOpens?: number;
  requireOTP?: boolean;
  watermarkEnabled?: boolean;
  downloadsEnabled?: boolean;
};
export const SHARE_OVERRIDE_FIELDS = [
  'defaultExpiryHours',
  'maxOpens',
  'requireOTP',
  'watermarkEnabled',
  'downloadsEnabled',
] as const;
export type ShareOverrideField = (typeof SHARE_OVERRIDE_FIELDS)[number];

export function shareFormOf(overrides: TeamPolicyOverrides): ShareOverrideForm {
  const share = overrides.patientShare ?? {};
  return Object.fromEntries(
    SHARE_OVERRIDE_FIELDS.filter((f) => share[f] !== undefined).map((f) => [f, share[f]]),
  ) as ShareOverrideForm;
}

/**
 * The overrides to PUT: the team's other overrides (retention, formats, sharing, allowed scopes) as they are, the
 * share fields of the form; a field left to inherit is absent.
 */
export function overridesWith(current: TeamPolicyOverrides, form: ShareOverrideForm): TeamPolicyOverrides {
  const { patientShare, ...rest } = current;
  const kept = Object.fromEntries(
    Object.entries(patientShare ?? {}).filter(([k]) => !(SHARE_OVERRIDE_FIELDS as readonly string[]).includes(k)),
  );
  const chosen = Object.fromEntries(
    SHARE_OVERRIDE_FIELDS.filter((f) => form[f] !== undefined).map((f) => [f, form[f]]),
  );
  const share = { ...kept, ...chosen };
  return Object.keys(share).length > 0 ? { ...rest, patientShare: share } : rest;
}

export const expiryLabel = (hours: number) =>
  SHARE_EXPIRY_OPTIONS.find((o) => o.hours === hours)?.label ?? `Custom (${hours} h)`;
export const opensLabel = (n: number) => (n === UNLIMITED_OPENS ? 'Unlimited' : String(n));
export const onOff = (on: boolean) => (on ? 'On' : 'Off');

/** The hospital's value of a field, in the words its own form uses. */
export function hospitalValue(field: ShareOverrideField, inherited: Policy): string {
  const share = inherited.patientShare;
  switch (field) {
    case 'defaultExpiryHours':
      return expiryLabel(share.defaultExpiryHours);
    case 'maxOpens':
      return opensLabel(share.maxOpens);
    default:
      return onOff(share[field]);
  }
}
