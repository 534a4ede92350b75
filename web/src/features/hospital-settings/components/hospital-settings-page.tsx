import { Alert, Badge, Button, Card, Heading, HStack, Input, Slider, Stack, Tabs, Text } from '@chakra-ui/react';
import { useEffect, useMemo, useReducer, useState, type ReactNode } from 'react';
import { ANONYMIZATION_OPTIONS, type AnonymizationOption } from '#shared/vocabulary/deidentification.ts';
import {
  DEFAULT_MEMBER_ROLES,
  HIPAA_TOGGLES,
  MAX_OPENS_OPTIONS,
  SHARE_EXPIRY_OPTIONS,
  SHARE_SCOPES,
  THRESHOLD_MAX,
  THRESHOLD_MIN,
  THRESHOLD_STEP,
  type HospitalProfile,
  type HospitalSettings,
  type NotificationPreferences,
  type Policy,
} from '#shared/schemas/api/policies.ts';
import type { DeidentificationPolicy } from '#shared/schemas/api/hospital-admin.ts';
import { NotificationPreferencesFields } from '#web/components/notification-preferences-fields.tsx';
import { Checkbox } from '#web/components/ui/checkbox.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { ErrorBox, PageSpinner } from '#web/components/ui/page-states.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { toaster } from '#web/components/ui/toaster.tsx';
import { errorMessage } from '#web/lib/api-error.ts';
import { formatBytes, gbToTb, storagePercent } from '#web/lib/format.ts';
import { withDownloads } from '#web/lib/policy-edits.ts';
import { LabelledSwitch } from '#web/components/ui/labelled-switch.tsx';
import { IntegrationsSection } from '#web/features/hospital-settings/components/integrations-section.tsx';
import {
  saveDeidentificationPolicy,
  saveHospitalSettings,
  saveMyNotificationPreferences,
  useDeidentificationPolicy,
  useHospitalSettings,
  useMyNotificationPreferences,
} from '#web/features/hospital-settings/api/hospital-settings-api.ts';
import {
  hasUnsavedChanges,
  lockedShareItems,
  profileDraft,
  profileErrors,
  settingsReducer,
  withCritical,
  withScope,
  withWarning,
  type SettingsDraft,
  type SettingsFormState,
} from '#web/features/hospital-settings/utils/settings-form.ts';

const TABS = [
  { value: 'profile', label: 'Profile' },
  { value: 'users-teams', label: 'Users & Teams' },
  { value: 'usage', label: 'Usage' },
  { value: 'patient-share', label: 'Patient Share' },
  { value: 'compliance', label: 'Compliance' },
  { value: 'notifications', label: 'Notifications' },
  { value: 'integrations', label: 'Integrations' },
] as const;

const SCOPE_LABELS: Record<(typeof SHARE_SCOPES)[number], string> = {
  viewer_only: 'Viewer only',
  screenshots: 'Screenshots',
  downloads: 'Downloads',
};
const HIPAA_LABELS: Record<(typeof HIPAA_TOGGLES)[number], string> = {
  anonymizeByDefault: 'Anonymize by default',
  hashIds: 'Hash IDs',
  regenerateUIDs: 'Regenerate UIDs',
  removePrivateTags: 'Remove private tags',
};
const DEID_LABELS: Record<AnonymizationOption, string> = {
  retainPhysicianIdentity: 'Keep physician information',
  retainInstitutionIdentity: 'Keep institution information',
  retainUids: 'Keep original UIDs',
  retainLongitudinalDates: 'Keep dates (longitudinal studies)',
  retainPatientCharacteristics: 'Keep patient characteristics',
  keepPrivate: 'Keep safe private attributes',
  keepAllPrivate: 'Keep all private attributes',
  removeAllPrivate: 'Remove all private attributes',
};

/** A switch with a badge beside it; a `locked` item is disabled and says "Locked by admin". */
function Toggle(props: {
  label: string;
  checked: boolean;
  onChange(checked: boolean): void;
  disabled?: boolean;
  locked?: boolean;
  badge?: ReactNode;
}) {
  return (
    <HStack justify="space-between">
      <LabelledSwitch
        label={props.label}
        checked={props.checked}
        disabled={props.disabled || props.locked}
        onChange={props.onChange}
      />
      {props.locked ? <Badge colorPalette="gray">Locked by admin</Badge> : props.badge}
    </HStack>
  );
}

/** One tab of the form: a card holding the tab's fields. */
function SettingsTab({ value, gap = '4', children }: { value: string; gap?: string; children: ReactNode }) {
  return (
    <Tabs.Content value={value}>
      <Card.Root>
        <Card.Body>
          <Stack gap={gap} maxW="xl">
            {children}
          </Stack>
        </Card.Body>
      </Card.Root>
    </Tabs.Content>
  );
}

/** The form's state as the server holds it. */
function savedForm(
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

function PercentSlider(props: { label: string; value: number; min: number; onChange(value: number): void }) {
  return (
    <Slider.Root
      value={[props.value]}
      min={props.min}
      max={THRESHOLD_MAX}
      step={THRESHOLD_STEP}
      onValueChange={(e) => props.onChange(e.value[0] ?? props.value)}
    >
      <HStack justify="space-between">
        <Slider.Label>{props.label}</Slider.Label>
        <Text>{props.value}%</Text>
      </HStack>
      <Slider.Control>
        <Slider.Track>
          <Slider.Range />
        </Slider.Track>
        <Slider.Thumb index={0} aria-label={props.label}>
          <Slider.HiddenInput />
        </Slider.Thumb>
      </Slider.Control>
    </Slider.Root>
  );
}

const numberOr = (text: string, fallback: number) =>
  text.trim() === '' || Number.isNaN(Number(text)) ? fallback : Number(text);

/**
 * The hospital settings page (docs/screens.md#hospital-settings-page): one tabbed form over the profile, the hospital
 * policy and the de-identification policy, saved together; the banner says when something is unsaved.
 */
export function HospitalSettingsPage() {
  const settings = useHospitalSettings();
  const deid = useDeidentificationPolicy();
  const preferences = useMyNotificationPreferences();
  const [state, dispatch] = useReducer(settingsReducer, undefined);
  const [tab, setTab] = useState<string>('profile');
  const [saving, setSaving] = useState(false);
  const [showErrors, setShowErrors] = useState(false);

  useEffect(() => {
    if (!settings.data || !deid.data || !preferences.data) return;
    dispatch({ type: 'loaded', value: savedForm(settings.data, deid.data, preferences.data) });
  }, [settings.data, deid.data, preferences.data]);

  const errors = useMemo(() => (state ? profileErrors(state.draft.profile) : {}), [state]);

  const loadError = settings.error ?? deid.error ?? preferences.error;
  if (loadError) return <ErrorBox message={errorMessage(loadError)} />;
  if (!state || !settings.data) return <PageSpinner />;

  const { policy, profile, deidentification } = state.draft;
  const system = settings.data.system;
  const locked = lockedShareItems(system);
  const dirty = hasUnsavedChanges(state);
  const change = (fn: (p: Policy) => Policy) => dispatch({ type: 'policy', change: fn });
  const share = policy.patientShare;
  const setShare = (fields: Partial<Policy['patientShare']>) =>
    change((p) => ({ ...p, patientShare: { ...p.patientShare, ...fields } }));

  const current: SettingsFormState = state;
  async function save() {
    setShowErrors(true);
    if (Object.keys(profileErrors(current.draft.profile)).length > 0) {
      setTab('profile');
      return;
    }
    setSaving(true);
    try {
      const saved = await saveHospitalSettings({ profile: current.draft.profile, policy: current.draft.policy });
      const savedDeid = await saveDeidentificationPolicy(current.draft.deidentification);
      const savedPreferences = await saveMyNotificationPreferences(current.draft.notifications);
      await Promise.all([
        settings.mutate(saved, { revalidate: false }),
        deid.mutate(savedDeid, { revalidate: false }),
        preferences.mutate(savedPreferences, { revalidate: false }),
      ]);
      dispatch({ type: 'loaded', value: savedForm(saved, savedDeid, savedPreferences) });
      toaster.create({ type: 'success', title: 'Settings saved' });
    } catch (error) {
      toaster.create({ type: 'error', title: 'Error', description: errorMessage(error) });
    } finally {
      setSaving(false);
    }
  }

  const profileField = (field: keyof HospitalProfile, label: string, type = 'text') => (
    <FormField label={label} required error={showErrors ? errors[field] : undefined}>
      <Input
        type={type}
        value={profile[field]}
        onChange={(e) => dispatch({ type: 'profile', field, value: e.currentTarget.value })}
      />
    </FormField>
  );

  return (
    <Stack gap="6">
      <Heading size="2xl">Hospital Settings</Heading>
      {dirty && (
        <Alert.Root status="warning" role="status">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>You have unsaved changes</Alert.Title>
          </Alert.Content>
          <HStack>
            <Button variant="outline" size="sm" onClick={() => dispatch({ type: 'discard' })} disabled={saving}>
              Discard
            </Button>
            <Button size="sm" onClick={() => void save()} loading={saving} disabled={!dirty || saving}>
              Save Changes
            </Button>
          </HStack>
        </Alert.Root>
      )}
      <Tabs.Root value={tab} onValueChange={(e) => setTab(e.value)} variant="line">
        <Tabs.List flexWrap="wrap">
          {TABS.map((t) => (
            <Tabs.Trigger key={t.value} value={t.value}>
              {t.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>

        <SettingsTab value="profile">
          {profileField('name', 'Hospital name')}
          {profileField('email', 'Primary email', 'email')}
          {profileField('phone', 'Phone', 'tel')}
          {profileField('billingContact', 'Billing contact', 'email')}
          {profileField('address', 'Address')}
          <Heading size="md">Security Settings</Heading>
          <Toggle
            label="Two-Factor Authentication"
            checked={policy.security.twoFactorRequired}
            locked={system.security.twoFactorRequired}
            onChange={(on) => change((p) => ({ ...p, security: { ...p.security, twoFactorRequired: on } }))}
          />
          <Toggle
            label="Single Sign-On"
            checked={policy.security.ssoEnabled}
            onChange={(on) => change((p) => ({ ...p, security: { ...p.security, ssoEnabled: on } }))}
          />
          {policy.security.ssoEnabled ? (
            <FormField
              label="SSO Domain"
              helperText="Users with this email domain are redirected to SSO."
              error={showErrors && !policy.security.ssoDomain ? 'Required' : undefined}
            >
              <Input
                value={policy.security.ssoDomain ?? ''}
                onChange={(e) => {
                  const ssoDomain = e.currentTarget.value.trim() || undefined;
                  change((p) => ({ ...p, security: { ...p.security, ssoDomain } }));
                }}
              />
            </FormField>
          ) : (
            <Text color="fg.muted" fontSize="sm">
              SSO configuration may be locked by a Super Admin.
            </Text>
          )}
        </SettingsTab>

        <SettingsTab value="users-teams">
          <Toggle
            label="Auto-approve team leads"
            checked={policy.userAndTeam.autoApproveTeamLeads}
            disabled={!system.userAndTeam.autoApproveTeamLeads}
            onChange={(on) => change((p) => ({ ...p, userAndTeam: { ...p.userAndTeam, autoApproveTeamLeads: on } }))}
          />
          <FormField label="Default member role">
            <Select
              value={policy.userAndTeam.defaultMemberRole}
              options={DEFAULT_MEMBER_ROLES.map((r) => ({
                value: r,
                label: r === 'TEAM_MEMBER' ? 'Team Member' : 'Guest',
              }))}
              onChange={(value) =>
                change((p) => ({
                  ...p,
                  userAndTeam: {
                    ...p.userAndTeam,
                    defaultMemberRole: value as Policy['userAndTeam']['defaultMemberRole'],
                  },
                }))
              }
            />
          </FormField>
        </SettingsTab>

        <SettingsTab value="usage" gap="5">
          <Text>
            {formatBytes(settings.data.storageUsedBytes)} used of {gbToTb(policy.storageCompute.storageCapGB)} TB (
            {storagePercent(settings.data.storageUsedBytes, policy.storageCompute.storageCapGB)}%)
          </Text>
          <FormField
            label="Storage cap (GB)"
            helperText={`${gbToTb(policy.storageCompute.storageCapGB)} TB · system maximum ${gbToTb(system.storageCompute.storageCapGB)} TB`}
          >
            <Input
              type="number"
              min={1}
              max={system.storageCompute.storageCapGB}
              value={policy.storageCompute.storageCapGB}
              onChange={(e) => {
                const storageCapGB = numberOr(e.currentTarget.value, policy.storageCompute.storageCapGB);
                change((p) => ({ ...p, storageCompute: { ...p.storageCompute, storageCapGB } }));
              }}
            />
          </FormField>
          <FormField
            label="Queue concurrency"
            helperText={`System maximum ${system.storageCompute.computeThrottles.queueConcurrency}`}
          >
            <Input
              type="number"
              min={1}
              max={system.storageCompute.computeThrottles.queueConcurrency}
              value={policy.storageCompute.computeThrottles.queueConcurrency}
              onChange={(e) => {
                const queueConcurrency = numberOr(
                  e.currentTarget.value,
                  policy.storageCompute.computeThrottles.queueConcurrency,
                );
                change((p) => ({
                  ...p,
                  storageCompute: { ...p.storageCompute, computeThrottles: { queueConcurrency } },
                }));
              }}
            />
          </FormField>
          <PercentSlider
            label="Warning threshold"
            value={policy.storageCompute.alertThresholds.warning}
            min={THRESHOLD_MIN}
            onChange={(v) => change((p) => withWarning(p, v))}
          />
          <PercentSlider
            label="Critical threshold"
            value={policy.storageCompute.alertThresholds.critical}
            min={policy.storageCompute.alertThresholds.warning}
            onChange={(v) => change((p) => withCritical(p, v))}
          />
        </SettingsTab>

        <SettingsTab value="patient-share">
          <Toggle
            label="Require OTP"
            checked={share.requireOTP}
            locked={locked.requireOTP}
            onChange={(on) => setShare({ requireOTP: on })}
          />
          <FormField label="Default expiry">
            <Select
              value={String(share.defaultExpiryHours)}
              options={[
                ...SHARE_EXPIRY_OPTIONS.map((o) => ({ value: String(o.hours), label: o.label })),
                ...(SHARE_EXPIRY_OPTIONS.some((o) => o.hours === share.defaultExpiryHours)
                  ? []
                  : [
                      {
                        value: String(share.defaultExpiryHours),
                        label: `Custom (${share.defaultExpiryHours} h)`,
                      },
                    ]),
              ]}
              onChange={(value) => setShare({ defaultExpiryHours: Number(value) })}
            />
          </FormField>
          <FormField label="Max opens">
            <Select
              value={String(share.maxOpens)}
              options={MAX_OPENS_OPTIONS.map((n) => ({
                value: String(n),
                label: n === -1 ? 'Unlimited' : String(n),
              }))}
              onChange={(value) => setShare({ maxOpens: Number(value) })}
            />
          </FormField>
          <Toggle
            label="Watermark"
            checked={share.watermarkEnabled}
            locked={locked.watermarkEnabled}
            onChange={(on) => setShare({ watermarkEnabled: on })}
          />
          <Toggle
            label="Downloads"
            checked={share.downloadsEnabled}
            locked={locked.downloadsEnabled}
            onChange={(on) => change((p) => withDownloads(p, on))}
          />
          <Text fontWeight="medium">Allowed scopes</Text>
          {SHARE_SCOPES.map((scope) => (
            <HStack key={scope}>
              <Checkbox
                checked={share.allowedScopes.includes(scope)}
                disabled={scope === 'downloads' && !share.downloadsEnabled}
                onCheckedChange={(on) => change((p) => withScope(p, scope, on))}
              >
                {SCOPE_LABELS[scope]}
              </Checkbox>
              {scope === 'downloads' && !share.downloadsEnabled && <Badge>Requires Downloads</Badge>}
            </HStack>
          ))}
          <Text color="fg.muted" fontSize="sm">
            Team leads may override share settings only more restrictively than these defaults.
          </Text>
        </SettingsTab>

        <SettingsTab value="compliance">
          <Heading size="md">HIPAA</Heading>
          {HIPAA_TOGGLES.map((toggle) => (
            <Toggle
              key={toggle}
              label={HIPAA_LABELS[toggle]}
              checked={policy.compliance.hipaaToggles[toggle]}
              locked={system.compliance.hipaaToggles[toggle]}
              onChange={(on) =>
                change((p) => ({
                  ...p,
                  compliance: { ...p.compliance, hipaaToggles: { ...p.compliance.hipaaToggles, [toggle]: on } },
                }))
              }
            />
          ))}
          <Toggle
            label="Block PHI in messages"
            checked
            disabled
            onChange={() => undefined}
            badge={<Badge>Required</Badge>}
          />
          <Heading size="md">De-identification policy</Heading>
          {ANONYMIZATION_OPTIONS.map((option) => (
            <HStack key={option} justify="space-between" wrap="wrap">
              <Toggle
                label={DEID_LABELS[option]}
                checked={deidentification.defaults[option] ?? false}
                onChange={(on) =>
                  dispatch({
                    type: 'deidentification',
                    value: { ...deidentification, defaults: { ...deidentification.defaults, [option]: on } },
                  })
                }
              />
              <Checkbox
                checked={deidentification.uploaderMayChange.includes(option)}
                onCheckedChange={(on) =>
                  dispatch({
                    type: 'deidentification',
                    value: {
                      ...deidentification,
                      uploaderMayChange: on
                        ? [...deidentification.uploaderMayChange, option].sort()
                        : deidentification.uploaderMayChange.filter((o) => o !== option),
                    },
                  })
                }
              >
                Uploader may change
              </Checkbox>
            </HStack>
          ))}
        </SettingsTab>

        <SettingsTab value="notifications">
          <Text color="fg.muted">
            Storage notifications are raised at {policy.storageCompute.alertThresholds.warning}% (warning) and{' '}
            {policy.storageCompute.alertThresholds.critical}% (critical) of the storage cap.
          </Text>
          <NotificationPreferencesFields
            value={state.draft.notifications}
            onChange={(value) => dispatch({ type: 'notifications', value })}
          />
        </SettingsTab>

        {/* Saved at once, apart from the form's Save Changes (docs/dicom-intake.md#integrations). */}
        <Tabs.Content value="integrations">
          <Card.Root>
            <Card.Body>
              <IntegrationsSection />
            </Card.Body>
          </Card.Root>
        </Tabs.Content>
      </Tabs.Root>
      {!dirty && (
        <HStack justify="flex-end">
          <Button disabled>Save Changes</Button>
        </HStack>
      )}
    </Stack>
  );
}
