import { Badge, Button, Card, DataList, Heading, HStack, SimpleGrid, Stack, Tabs, Text } from '@chakra-ui/react';
import { useState } from 'react';
import type { TeamDetail, TeamSettings } from '#shared/schemas/api/organisation.ts';
import { ErrorBox, PageSpinner } from '#web/components/ui/page-states.tsx';
import { StatCard } from '#web/components/ui/stat-card.tsx';
import { toaster } from '#web/components/ui/toaster.tsx';
import { errorMessage } from '#web/lib/api-error.ts';
import { formatBytes } from '#web/lib/format.ts';
import { updateTeam, useTeam } from '#web/features/teams/api/teams.ts';
import { MembersTab } from '#web/features/teams/components/members-tab.tsx';
import { ShareOverrides } from '#web/features/teams/components/share-overrides.tsx';
import { TeamSettingsFields } from '#web/features/teams/components/team-settings-fields.tsx';
import { DEFAULT_TAB_SLOTS, type TabSlots } from '#web/features/teams/components/team-tab-slots.tsx';

/** The tabs of Team Management; a link may open one of them (`/teams?tab=invitations`). */
export const TEAM_TABS = ['overview', 'members', 'invitations', 'dicom', 'analytics', 'settings'] as const;
export type TeamTab = (typeof TEAM_TABS)[number];

export function teamTabOf(value: string | null): TeamTab {
  return TEAM_TABS.find((t) => t === value) ?? 'overview';
}

type Props = { teamId: string; canManage: boolean; slots?: TabSlots; initialTab?: TeamTab };

/** Team Management (team lead, and the hospital admin opening a team): six tabs (docs/screens.md#teams-page). */
export function TeamManagement({ teamId, canManage, slots, initialTab = 'overview' }: Props) {
  const { data: team, error, isLoading } = useTeam(teamId);
  if (error) return <ErrorBox message={errorMessage(error)} />;
  if (isLoading || !team) return <PageSpinner />;
  const Invitations = slots?.invitations ?? DEFAULT_TAB_SLOTS.invitations;
  const Dicom = slots?.dicom ?? DEFAULT_TAB_SLOTS.dicom;
  const Analytics = slots?.analytics ?? DEFAULT_TAB_SLOTS.analytics;
  return (
    <Stack gap="6">
      <Stack gap="1">
        <Heading size="2xl">Team Management</Heading>
        <Text color="fg.muted">
          {team.name} · {team.departmentName}
        </Text>
      </Stack>
      <Tabs.Root defaultValue={initialTab} lazyMount>
        <Tabs.List flexWrap="wrap">
          <Tabs.Trigger value="overview">Overview</Tabs.Trigger>
          <Tabs.Trigger value="members">Members</Tabs.Trigger>
          <Tabs.Trigger value="invitations">Invitations</Tabs.Trigger>
          <Tabs.Trigger value="dicom">DICOM Shares</Tabs.Trigger>
          <Tabs.Trigger value="analytics">Analytics</Tabs.Trigger>
          <Tabs.Trigger value="settings">Settings</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="overview">
          <TeamOverview team={team} />
        </Tabs.Content>
        <Tabs.Content value="members">
          <MembersTab teamId={teamId} />
        </Tabs.Content>
        <Tabs.Content value="invitations">
          <Invitations teamId={teamId} canManage={canManage} />
        </Tabs.Content>
        <Tabs.Content value="dicom">
          <Dicom teamId={teamId} canManage={canManage} />
        </Tabs.Content>
        <Tabs.Content value="analytics">
          <Analytics teamId={teamId} canManage={canManage} />
        </Tabs.Content>
        <Tabs.Content value="settings">
          <SettingsTab team={team} />
        </Tabs.Content>
      </Tabs.Root>
    </Stack>
  );
}

function TeamOverview({ team }: { team: TeamDetail }) {
  const info = [
    { label: 'Department', value: team.departmentName },
    { label: 'Team Lead', value: team.leadName ?? 'No lead' },
    { label: 'Data Policy', value: team.dataPolicy === 'shared' ? 'Shared' : 'Individual' },
    { label: 'Members', value: `${team.memberCount} of ${team.maxMembers}` },
    { label: 'Priority', value: team.priority === 'high' ? 'High' : 'Medium' },
  ];
  return (
    <Stack gap="5">
      <SimpleGrid columns={{ base: 2, md: 4 }} gap="4">
        <StatCard label="Active Members" value={team.stats.activeMembers} testId="team-active-members" />
        <StatCard label="Pending Invites" value={team.stats.pendingInvites} testId="team-pending-invites" />
        <StatCard label="Total Datasets" value={team.stats.totalDatasets} testId="team-total-datasets" />
        <StatCard label="Storage Used" value={formatBytes(team.stats.storageUsedBytes)} testId="team-storage-used" />
      </SimpleGrid>
      <Card.Root>
        <Card.Body gap="3">
          {team.description && <Text>{team.description}</Text>}
          <DataList.Root orientation="horizontal">
            {info.map((i) => (
              <DataList.Item key={i.label}>
                <DataList.ItemLabel>{i.label}</DataList.ItemLabel>
                <DataList.ItemValue>{i.value}</DataList.ItemValue>
              </DataList.Item>
            ))}
          </DataList.Root>
          {team.tags.length > 0 && (
            <HStack wrap="wrap">
              {team.tags.map((t) => (
                <Badge key={t}>{t}</Badge>
              ))}
            </HStack>
          )}
        </Card.Body>
      </Card.Root>
    </Stack>
  );
}

function SettingsTab({ team }: { team: TeamDetail }) {
  const [settings, setSettings] = useState<TeamSettings>(team.settings);
  const [saving, setSaving] = useState(false);
  const changed = JSON.stringify(settings) !== JSON.stringify(team.settings);
  const save = async () => {
    setSaving(true);
    try {
      await updateTeam(team.id, { settings });
      toaster.success({ title: 'Team settings saved' });
    } catch (e) {
      toaster.error({ title: 'Error', description: errorMessage(e) });
    } finally {
      setSaving(false);
    }
  };
  return (
    <Stack gap="4" maxW="3xl">
      <TeamSettingsFields value={settings} onChange={setSettings} />
      <Button alignSelf="start" onClick={save} disabled={!changed} loading={saving}>
        Save Settings
      </Button>
      <ShareOverrides teamId={team.id} />
    </Stack>
  );
}
