import { Avatar, Button, Card, Heading, HStack, Input, Stack, Tabs, Text } from '@chakra-ui/react';
import { useEffect, useRef, useState } from 'react';
import type { Role } from '#shared/vocabulary/roles.ts';
import type { NotificationPreferences, Policy, UserProfile } from '#shared/schemas/api/policies.ts';
import { NotificationPreferencesFields } from '#web/components/notification-preferences-fields.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { ErrorBox, PageSpinner } from '#web/components/ui/page-states.tsx';
import { toaster } from '#web/components/ui/toaster.tsx';
import { errorMessage } from '#web/lib/api-error.ts';
import { LabelledSwitch } from '#web/components/ui/labelled-switch.tsx';
import { formatBytes, gbToTb, storagePercent } from '#web/lib/format.ts';
import { withDownloads } from '#web/lib/policy-edits.ts';
import { useSaveAction } from '#web/lib/use-save-action.ts';
import {
  changePassword,
  saveNotificationPreferences,
  saveProfile,
  saveSystemPolicy,
  signOutEverywhere,
  uploadAvatar,
  useHospitalStorage,
  useNotificationPreferences,
  useProfile,
  useSystemPolicy,
} from '#web/features/settings/api/settings-api.ts';
import {
  avatarProblem,
  EMPTY_PASSWORD_FORM,
  passwordErrors,
  settingsTabs,
  type PasswordForm,
} from '#web/features/settings/utils/user-settings-form.ts';

function ProfileTab() {
  const profile = useProfile();
  const [draft, setDraft] = useState<UserProfile | undefined>();
  const { saving, run } = useSaveAction();
  const [avatarError, setAvatarError] = useState<string>();
  const fileInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (profile.data)
      setDraft({
        firstName: profile.data.firstName,
        lastName: profile.data.lastName,
        phone: profile.data.phone ?? '',
        specialization: profile.data.specialization ?? '',
      });
  }, [profile.data]);
  if (profile.error) return <ErrorBox message={errorMessage(profile.error)} />;
  if (!draft || !profile.data) return <PageSpinner />;

  const field = (key: keyof UserProfile, label: string, required = false) => (
    <FormField label={label} required={required} error={required && !draft[key]?.trim() ? 'Required' : undefined}>
      <Input
        aria-label={label}
        value={draft[key] ?? ''}
        onChange={(e) => setDraft({ ...draft, [key]: e.currentTarget.value })}
      />
    </FormField>
  );

  async function onAvatar(file: File | undefined) {
    if (!file) return;
    const problem = avatarProblem(file);
    setAvatarError(problem);
    if (problem) return;
    try {
      await uploadAvatar(file);
      await profile.mutate();
      toaster.create({ type: 'success', title: 'Avatar updated' });
    } catch (error) {
      setAvatarError(errorMessage(error));
    }
  }

  async function save() {
    if (!draft?.firstName.trim() || !draft.lastName.trim()) return;
    await run(async () => profile.mutate(await saveProfile(draft), { revalidate: false }), 'Profile saved');
  }

  return (
    <Stack gap="4" maxW="xl">
      <HStack gap="4">
        <Avatar.Root size="2xl">
          <Avatar.Fallback name={`${profile.data.firstName} ${profile.data.lastName}`} />
          {profile.data.avatarUrl && <Avatar.Image src={profile.data.avatarUrl} />}
        </Avatar.Root>
        <Stack gap="1">
          <Button size="sm" variant="outline" onClick={() => fileInput.current?.click()}>
            Change avatar
          </Button>
          <Text fontSize="sm" color={avatarError ? 'fg.error' : 'fg.muted'}>
            {avatarError ?? 'JPG, GIF or PNG. Max size of 2MB'}
          </Text>
          <input
            ref={fileInput}
            type="file"
            hidden
            accept="image/jpeg,image/gif,image/png"
            aria-label="Avatar"
            onChange={(e) => void onAvatar(e.currentTarget.files?.[0])}
          />
        </Stack>
      </HStack>
      <Text color="fg.muted">{profile.data.email}</Text>
      {field('firstName', 'First name', true)}
      {field('lastName', 'Last name', true)}
      {field('phone', 'Phone')}
      {field('specialization', 'Specialization')}
      <HStack>
        <Button onClick={() => void save()} loading={saving}>
          Save Profile
        </Button>
      </HStack>
    </Stack>
  );
}

function SecurityTab({ onSignedOut }: { onSignedOut(): Promise<void> }) {
  const [form, setForm] = useState<PasswordForm>(EMPTY_PASSWORD_FORM);
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState<'password' | 'sessions'>();
  const errors = submitted ? passwordErrors(form) : {};

  async function submit() {
    setSubmitted(true);
    if (Object.keys(passwordErrors(form)).length > 0) return;
    setBusy('password');
    try {
      await changePassword(form.currentPassword, form.newPassword);
      setForm(EMPTY_PASSWORD_FORM);
      setSubmitted(false);
      toaster.create({ type: 'success', title: 'Password changed' });
    } catch (error) {
      toaster.create({ type: 'error', title: 'Error', description: errorMessage(error) });
    } finally {
      setBusy(undefined);
    }
  }

  async function everywhere() {
    setBusy('sessions');
    try {
      await signOutEverywhere();
    } catch {
      // Sign-out errors are ignored and the local session is cleared anyway (docs/error-catalogue.md#auth-and-lookup).
    }
    await onSignedOut();
  }

  const password = (key: keyof PasswordForm, label: string) => (
    <FormField label={label} required error={errors[key]}>
      <Input
        type="password"
        aria-label={label}
        autoComplete={key === 'currentPassword' ? 'current-password' : 'new-password'}
        value={form[key]}
        onChange={(e) => setForm({ ...form, [key]: e.currentTarget.value })}
      />
    </FormField>
  );

  return (
    <Stack gap="6" maxW="xl">
      <Stack gap="4">
        <Heading size="md">Change password</Heading>
        {password('currentPassword', 'Current password')}
        {password('newPassword', 'New password')}
        {password('confirmPassword', 'Confirm new password')}
        <HStack>
          <Button onClick={() => void submit()} loading={busy === 'password'}>
            Update Password
          </Button>
        </HStack>
      </Stack>
      <Stack gap="2">
        <Heading size="md">Active sessions</Heading>
        <Text color="fg.muted">Signs this account out on every device, this one included.</Text>
        <HStack>
          <Button variant="outline" colorPalette="red" onClick={() => void everywhere()} loading={busy === 'sessions'}>
            Sign out everywhere
          </Button>
        </HStack>
      </Stack>
    </Stack>
  );
}

function NotificationsTab() {
  const preferences = useNotificationPreferences();
  const [draft, setDraft] = useState<NotificationPreferences>();
  const { saving, run } = useSaveAction();
  useEffect(() => {
    if (preferences.data) setDraft(preferences.data);
  }, [preferences.data]);
  if (preferences.error) return <ErrorBox message={errorMessage(preferences.error)} />;
  if (!draft) return <PageSpinner />;

  async function save() {
    if (!draft) return;
    await run(
      async () => preferences.mutate(await saveNotificationPreferences(draft), { revalidate: false }),
      'Preferences saved',
    );
  }

  const dirty = JSON.stringify(draft) !== JSON.stringify(preferences.data);
  return (
    <Stack gap="4" maxW="xl">
      <NotificationPreferencesFields value={draft} onChange={setDraft} />
      <HStack>
        <Button onClick={() => void save()} loading={saving} disabled={!dirty}>
          Save Preferences
        </Button>
      </HStack>
    </Stack>
  );
}

/** System maximums: the super admin edits the figures; a hospital admin reads what their policy sits under. */
function SystemTab({ editable }: { editable: boolean }) {
  const system = useSystemPolicy(true);
  const [draft, setDraft] = useState<Policy>();
  const { saving, run } = useSaveAction();
  useEffect(() => {
    if (system.data) setDraft(system.data.policy);
  }, [system.data]);
  if (system.error) return <ErrorBox message={errorMessage(system.error)} />;
  if (!draft) return <PageSpinner />;

  const number = (label: string, value: number, apply: (n: number) => Policy) => (
    <FormField label={label}>
      <Input
        type="number"
        aria-label={label}
        min={1}
        readOnly={!editable}
        value={value}
        onChange={(e) => {
          const n = Number(e.currentTarget.value);
          if (Number.isFinite(n) && n > 0) setDraft(apply(n));
        }}
      />
    </FormField>
  );
  async function save() {
    if (!draft) return;
    await run(async () => system.mutate(await saveSystemPolicy(draft), { revalidate: false }), 'System maximums saved');
  }
  return (
    <Stack gap="4" maxW="xl">
      <Text color="fg.muted">Hospital policies inherit from these and cannot exceed them.</Text>
      {number('Queue size', draft.storageCompute.computeThrottles.queueConcurrency, (n) => ({
        ...draft,
        storageCompute: { ...draft.storageCompute, computeThrottles: { queueConcurrency: Math.round(n) } },
      }))}
      {number('Max upload (MB)', draft.maxFileSizeMB, (n) => ({ ...draft, maxFileSizeMB: Math.round(n) }))}
      {number('Storage retention (days)', draft.dataRetentionDays, (n) => ({
        ...draft,
        dataRetentionDays: Math.round(n),
      }))}
      {number('Storage cap (GB)', draft.storageCompute.storageCapGB, (n) => ({
        ...draft,
        storageCompute: { ...draft.storageCompute, storageCapGB: n },
      }))}
      <LabelledSwitch
        label="Require OTP for patient shares"
        disabled={!editable}
        checked={draft.patientShare.requireOTP}
        onChange={(on) => setDraft({ ...draft, patientShare: { ...draft.patientShare, requireOTP: on } })}
      />
      <LabelledSwitch
        label="Allow patient share downloads"
        disabled={!editable}
        checked={draft.patientShare.downloadsEnabled}
        onChange={(on) => setDraft(withDownloads(draft, on))}
      />
      {editable && (
        <HStack>
          <Button onClick={() => void save()} loading={saving}>
            Save System Settings
          </Button>
        </HStack>
      )}
    </Stack>
  );
}

function StorageTab({ role }: { role: Role }) {
  const hospital = useHospitalStorage(role === 'HOSPITAL_ADMIN');
  const system = useSystemPolicy(role === 'SUPER_ADMIN');
  const error = hospital.error ?? system.error;
  if (error) return <ErrorBox message={errorMessage(error)} />;
  if (role === 'SUPER_ADMIN') {
    if (!system.data) return <PageSpinner />;
    const cap = system.data.policy.storageCompute.storageCapGB;
    return (
      <Text>
        Each hospital may use up to {gbToTb(cap)} TB ({cap} GB), with at most{' '}
        {system.data.policy.storageCompute.computeThrottles.queueConcurrency} processing runs at once.
      </Text>
    );
  }
  if (!hospital.data) return <PageSpinner />;
  const cap = hospital.data.policy.storageCompute.storageCapGB;
  const used = hospital.data.storageUsedBytes;
  const percent = storagePercent(used, cap);
  const { warning, critical } = hospital.data.policy.storageCompute.alertThresholds;
  return (
    <Stack gap="2">
      <Text>
        {formatBytes(used)} used of {gbToTb(cap)} TB ({percent}%)
      </Text>
      <Text color="fg.muted">
        Warning at {warning}%, critical at {critical}%. Data is kept {hospital.data.policy.dataRetentionDays} days.
      </Text>
    </Stack>
  );
}

/** The settings page of every role (docs/screens.md#settings-page). */
export function SettingsPage({ role, onSignedOut }: { role: Role; onSignedOut(): Promise<void> }) {
  const tabs = settingsTabs(role);
  return (
    <Stack gap="6">
      <Heading size="2xl">Settings</Heading>
      <Tabs.Root defaultValue="profile" variant="line" lazyMount>
        <Tabs.List>
          {tabs.map((t) => (
            <Tabs.Trigger key={t.value} value={t.value}>
              {t.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Card.Root mt="4">
          <Card.Body>
            <Tabs.Content value="profile">
              <ProfileTab />
            </Tabs.Content>
            <Tabs.Content value="security">
              <SecurityTab onSignedOut={onSignedOut} />
            </Tabs.Content>
            <Tabs.Content value="notifications">
              <NotificationsTab />
            </Tabs.Content>
            {tabs.some((t) => t.value === 'system') && (
              <>
                <Tabs.Content value="system">
                  <SystemTab editable={role === 'SUPER_ADMIN'} />
                </Tabs.Content>
                <Tabs.Content value="storage">
                  <StorageTab role={role} />
                </Tabs.Content>
              </>
            )}
          </Card.Body>
        </Card.Root>
      </Tabs.Root>
    </Stack>
  );
}
