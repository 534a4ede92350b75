import { Badge, Card, DataList, Heading, Stack, Text } from '@chakra-ui/react';
import { LuUsersRound } from 'react-icons/lu';
import type { TeamMember } from '#shared/schemas/api/organisation.ts';
import { DataTable, type DataTableColumn } from '#web/components/ui/data-table.tsx';
import { EmptyBlock, ErrorBox, PageSpinner } from '#web/components/ui/page-states.tsx';
import { errorMessage } from '#web/lib/api-error.ts';
import { useTeam, useTeamMembers } from '#web/features/teams/api/teams.ts';

const MEMBER_COLUMNS: DataTableColumn<TeamMember>[] = [
  { key: 'name', header: 'Name', cell: (m) => `${m.user.firstName} ${m.user.lastName}` },
  {
    key: 'role',
    header: 'Role',
    cell: (m) => <Badge>{m.role === 'LEAD' ? 'Lead' : m.role === 'MEMBER' ? 'Member' : 'Guest'}</Badge>,
  },
  { key: 'specialization', header: 'Specialization', cell: (m) => m.user.specialization || 'Team Member' },
];

/** "My Team" (team member and guest): the team, its lead and its members, read-only. */
export function MyTeam({ teamId }: { teamId: string }) {
  const team = useTeam(teamId);
  const members = useTeamMembers(teamId);
  if (team.error) return <ErrorBox message={errorMessage(team.error)} />;
  if (!team.data) return <PageSpinner />;
  const t = team.data;
  return (
    <Stack gap="6">
      <Stack gap="1">
        <Heading size="2xl">My Team</Heading>
        <Text color="fg.muted">{t.name}</Text>
      </Stack>
      <Card.Root>
        <Card.Body gap="3">
          {t.description && <Text>{t.description}</Text>}
          <DataList.Root orientation="horizontal">
            <DataList.Item>
              <DataList.ItemLabel>Department</DataList.ItemLabel>
              <DataList.ItemValue>{t.departmentName}</DataList.ItemValue>
            </DataList.Item>
            <DataList.Item>
              <DataList.ItemLabel>Team Lead</DataList.ItemLabel>
              <DataList.ItemValue>{t.leadName ?? 'No lead'}</DataList.ItemValue>
            </DataList.Item>
            <DataList.Item>
              <DataList.ItemLabel>Members</DataList.ItemLabel>
              <DataList.ItemValue>{t.memberCount}</DataList.ItemValue>
            </DataList.Item>
          </DataList.Root>
        </Card.Body>
      </Card.Root>
      {members.error && <ErrorBox message={errorMessage(members.error)} />}
      {members.data && (
        <DataTable
          aria-label="Team members"
          frameProps={{ borderWidth: '1px', rounded: 'md' }}
          columns={MEMBER_COLUMNS}
          rows={members.data.items}
          rowKey={(m) => m.id}
          empty={<EmptyBlock icon={<LuUsersRound />} title="No team members yet" />}
        />
      )}
    </Stack>
  );
}
