import { Badge, Card, DataList, Heading, Stack, Table, Text } from '@chakra-ui/react';
import { LuUsersRound } from 'react-icons/lu';
import { EmptyBlock, ErrorBox, PageSpinner } from '#web/components/ui/page-states.tsx';
import { errorMessage } from '#web/lib/api-error.ts';
import { useTeam, useTeamMembers } from '#web/features/teams/api/teams.ts';

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
      {members.data && members.data.items.length === 0 && (
        <EmptyBlock icon={<LuUsersRound />} title="No team members yet" />
      )}
      {members.data && members.data.items.length > 0 && (
        <Table.Root size="sm" borderWidth="1px" rounded="md">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Name</Table.ColumnHeader>
              <Table.ColumnHeader>Role</Table.ColumnHeader>
              <Table.ColumnHeader>Specialization</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {members.data.items.map((m) => (
              <Table.Row key={m.id}>
                <Table.Cell>
                  {m.user.firstName} {m.user.lastName}
                </Table.Cell>
                <Table.Cell>
                  <Badge>{m.role === 'LEAD' ? 'Lead' : m.role === 'MEMBER' ? 'Member' : 'Guest'}</Badge>
                </Table.Cell>
                <Table.Cell>{m.user.specialization || 'Team Member'}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
    </Stack>
  );
}
