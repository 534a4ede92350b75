import { Badge, Button, Heading, HStack, Stack, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuArchive, LuArrowLeft, LuPencil, LuPlus, LuRotateCcw, LuUsersRound } from 'react-icons/lu';
import type { Team } from '#shared/schemas/api/organisation.ts';
import { Checkbox } from '#web/components/ui/checkbox.tsx';
import { EmptyBlock, ErrorBox, PageSpinner } from '#web/components/ui/page-states.tsx';
import { toaster } from '#web/components/ui/toaster.tsx';
import { errorMessage } from '#web/lib/api-error.ts';
import { useDepartments } from '#web/lib/departments.ts';
import { archiveTeam, createTeam, restoreTeam, updateTeam, useTeams } from '#web/features/teams/api/teams.ts';
import { DepartmentsPanel } from '#web/features/teams/components/departments-panel.tsx';
import { TeamFormDialog } from '#web/features/teams/components/team-form-dialog.tsx';
import { TeamManagement } from '#web/features/teams/components/team-management.tsx';
import type { TabSlots } from '#web/features/teams/components/team-tab-slots.tsx';

/** Teams & Members (hospital admin): departments, and the hospital's teams with create, edit, archive and restore. */
export function TeamsAdmin({ slots }: { slots?: TabSlots }) {
  const [includeArchived, setIncludeArchived] = useState(false);
  const [editing, setEditing] = useState<Team | 'new'>();
  const [viewing, setViewing] = useState<string>();
  const teams = useTeams(includeArchived);
  const departments = useDepartments();

  if (viewing)
    return (
      <Stack gap="4">
        <Button alignSelf="start" variant="ghost" size="sm" onClick={() => setViewing(undefined)}>
          <LuArrowLeft /> All teams
        </Button>
        <TeamManagement teamId={viewing} canManage slots={slots} />
      </Stack>
    );

  const act = async (title: string, action: () => Promise<unknown>) => {
    try {
      await action();
      toaster.success({ title });
    } catch (e) {
      toaster.error({ title: 'Error', description: errorMessage(e) });
    }
  };

  return (
    <Stack gap="6">
      <HStack justify="space-between" wrap="wrap" gap="3">
        <Stack gap="1">
          <Heading size="2xl">Teams &amp; Members</Heading>
          <Text color="fg.muted">Departments and teams of your hospital, their leads and members.</Text>
        </Stack>
        <Button onClick={() => setEditing('new')} disabled={!departments.data?.items.length}>
          <LuPlus /> Create Team
        </Button>
      </HStack>
      {departments.error && <ErrorBox message={errorMessage(departments.error)} />}
      {departments.data && <DepartmentsPanel departments={departments.data.items} />}
      <Stack gap="3">
        <HStack justify="space-between">
          <Heading size="md">Teams</Heading>
          <Checkbox checked={includeArchived} onCheckedChange={setIncludeArchived}>
            Show archived teams
          </Checkbox>
        </HStack>
        {teams.error && <ErrorBox message={errorMessage(teams.error)} />}
        {teams.isLoading && <PageSpinner />}
        {teams.data && teams.data.items.length === 0 && (
          <EmptyBlock
            icon={<LuUsersRound />}
            title="No teams yet"
            description="Create a team in one of your departments."
          />
        )}
        {teams.data && teams.data.items.length > 0 && (
          <Table.ScrollArea borderWidth="1px" rounded="md">
            <Table.Root size="sm">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Team</Table.ColumnHeader>
                  <Table.ColumnHeader>Department</Table.ColumnHeader>
                  <Table.ColumnHeader>Lead</Table.ColumnHeader>
                  <Table.ColumnHeader>Members</Table.ColumnHeader>
                  <Table.ColumnHeader>Priority</Table.ColumnHeader>
                  <Table.ColumnHeader>Tags</Table.ColumnHeader>
                  <Table.ColumnHeader />
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {teams.data.items.map((t) => (
                  <Table.Row key={t.id} data-testid="team-row">
                    <Table.Cell>
                      <Button
                        variant="plain"
                        colorPalette="blue"
                        color="colorPalette.fg"
                        p="0"
                        h="auto"
                        _hover={{ textDecoration: 'underline' }}
                        title="Open Team Management"
                        onClick={() => setViewing(t.id)}
                      >
                        {t.name}
                      </Button>
                      {!t.isActive && (
                        <Badge ms="2" colorPalette="gray">
                          Archived
                        </Badge>
                      )}
                    </Table.Cell>
                    <Table.Cell>{t.departmentName}</Table.Cell>
                    <Table.Cell>{t.leadName ?? <Text color="fg.muted">No lead</Text>}</Table.Cell>
                    <Table.Cell>
                      {t.memberCount} / {t.maxMembers}
                    </Table.Cell>
                    <Table.Cell>
                      <Badge colorPalette={t.priority === 'high' ? 'red' : 'gray'}>{t.priority}</Badge>
                    </Table.Cell>
                    <Table.Cell>{t.tags.join(', ')}</Table.Cell>
                    <Table.Cell>
                      <HStack justify="end">
                        <Button size="xs" variant="ghost" aria-label={`Edit ${t.name}`} onClick={() => setEditing(t)}>
                          <LuPencil />
                        </Button>
                        {t.isActive ? (
                          <Button
                            size="xs"
                            variant="ghost"
                            aria-label={`Archive ${t.name}`}
                            onClick={() => act('Team archived', () => archiveTeam(t.id))}
                          >
                            <LuArchive />
                          </Button>
                        ) : (
                          <Button
                            size="xs"
                            variant="ghost"
                            aria-label={`Restore ${t.name}`}
                            onClick={() => act('Team restored', () => restoreTeam(t.id))}
                          >
                            <LuRotateCcw />
                          </Button>
                        )}
                      </HStack>
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
        )}
      </Stack>
      {editing && (
        <TeamFormDialog
          team={editing === 'new' ? undefined : editing}
          departments={departments.data?.items ?? []}
          onClose={() => setEditing(undefined)}
          onSave={(input) => (editing === 'new' ? createTeam(input) : updateTeam(editing.id, input))}
        />
      )}
    </Stack>
  );
}
