import { Badge, Button, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuArchive, LuArrowLeft, LuPencil, LuPlus, LuRotateCcw, LuUsersRound } from 'react-icons/lu';
import type { Team } from '#shared/schemas/api/organisation.ts';
import { Checkbox } from '#web/components/ui/checkbox.tsx';
import { DataTable } from '#web/components/ui/data-table.tsx';
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
        {teams.data && (
          <DataTable
            aria-label="Teams"
            scrollArea
            frameProps={{ borderWidth: '1px', rounded: 'md' }}
            rows={teams.data.items}
            rowKey={(t) => t.id}
            rowProps={() => ({ 'data-testid': 'team-row' })}
            empty={
              <EmptyBlock
                icon={<LuUsersRound />}
                title="No teams yet"
                description="Create a team in one of your departments."
              />
            }
            columns={[
              {
                key: 'team',
                header: 'Team',
                cell: (t) => (
                  <>
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
                  </>
                ),
              },
              { key: 'department', header: 'Department', cell: (t) => t.departmentName },
              { key: 'lead', header: 'Lead', cell: (t) => t.leadName ?? <Text color="fg.muted">No lead</Text> },
              { key: 'members', header: 'Members', cell: (t) => `${t.memberCount} / ${t.maxMembers}` },
              {
                key: 'priority',
                header: 'Priority',
                cell: (t) => <Badge colorPalette={t.priority === 'high' ? 'red' : 'gray'}>{t.priority}</Badge>,
              },
              { key: 'tags', header: 'Tags', cell: (t) => t.tags.join(', ') },
              {
                key: 'actions',
                cell: (t) => (
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
                ),
              },
            ]}
          />
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
