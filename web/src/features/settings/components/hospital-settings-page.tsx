import { Alert, Button, Heading, HStack, Stack, Tabs } from '@chakra-ui/react';
import { useState } from 'react';
import type { Policy } from '#shared/schemas/api/policies.ts';
import { ErrorBox, PageSpinner } from '#web/components/ui/page-states.tsx';
import { errorMessage } from '#web/lib/api-error.ts';
import { ComplianceTab } from './compliance-tab.tsx';
import { IntegrationsTab } from './integrations-tab.tsx';
import { NotificationsTab } from './notifications-tab.tsx';
import { PatientShareTab } from './patient-share-tab.tsx';
import { ProfileTab } from './profile-tab.tsx';
import { SsoTab } from './sso-tab.tsx';
import { UsageTab } from './usage-tab.tsx';
import { UsersTeamsTab } from './users-teams-tab.tsx';
import { useHospitalSettingsForm } from '#web/features/settings/hooks/use-hospital-settings-form.ts';

const TABS = [
  { value: 'profile', label: 'Profile' },
  { value: 'users-teams', label: 'Users & Teams' },
  { value: 'usage', label: 'Usage' },
  { value: 'patient-share', label: 'Patient Share' },
  { value: 'compliance', label: 'Compliance' },
  { value: 'notifications', label: 'Notifications' },
  { value: 'integrations', label: 'Integrations' },
  { value: 'sso', label: 'SSO' },
] as const;

/**
 * The hospital settings page (docs/screens.md#hospital-settings-page): one tabbed form over the profile, the hospital
 * policy and the de-identification policy, saved together; the banner says when something is unsaved.
 */
export function HospitalSettingsPage() {
  const form = useHospitalSettingsForm();
  const [tab, setTab] = useState<string>('profile');

  if (form.loadError) return <ErrorBox message={errorMessage(form.loadError)} />;
  if (!form.state || !form.settings) return <PageSpinner />;

  const { dispatch, dirty, saving } = form;
  const draft = form.state.draft;
  const policyTab = {
    policy: draft.policy,
    system: form.settings.system,
    change: (edit: (policy: Policy) => Policy) => dispatch({ type: 'policy', change: edit }),
  };
  const save = async () => {
    // The profile's messages are on its tab.
    if (!(await form.save())) setTab('profile');
  };

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
        <ProfileTab
          {...policyTab}
          profile={draft.profile}
          errors={form.errors}
          showErrors={form.showErrors}
          onProfileChange={(field, value) => dispatch({ type: 'profile', field, value })}
        />
        <UsersTeamsTab {...policyTab} />
        <UsageTab {...policyTab} storageUsedBytes={form.settings.storageUsedBytes} />
        <PatientShareTab {...policyTab} />
        <ComplianceTab
          {...policyTab}
          deidentification={draft.deidentification}
          onDeidentificationChange={(value) => dispatch({ type: 'deidentification', value })}
        />
        <NotificationsTab
          thresholds={draft.policy.storageCompute.alertThresholds}
          value={draft.notifications}
          onChange={(value) => dispatch({ type: 'notifications', value })}
        />
        <IntegrationsTab />
        <SsoTab />
      </Tabs.Root>
      {!dirty && (
        <HStack justify="flex-end">
          <Button disabled>Save Changes</Button>
        </HStack>
      )}
    </Stack>
  );
}
