import { Badge, Button, HStack, Stack, Text, Wrap } from '@chakra-ui/react';
import { useState } from 'react';
import { LuUserMinus } from 'react-icons/lu';
import { GRANTABLE_PERMISSIONS, type GrantablePermission } from '#shared/vocabulary/roles.ts';
import {
  ChangeMemberPermissionsRequestSchema,
  TEAM_ROLES,
  type TeamMember,
  type TeamRole,
} from '#shared/schemas/api/organisation.ts';
import { Checkbox } from '#web/components/ui/checkbox.tsx';
import { DataTable } from '#web/components/ui/data-table.tsx';
import { Modal } from '#web/components/ui/modal.tsx';
import { EmptyBlock, ErrorBox, PageSpinner } from '#web/components/ui/page-states.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { toaster } from '#web/components/ui/toaster.tsx';
import { errorMessage } from '#web/lib/api-error.ts';
import { formatDateTime } from '#web/lib/format.ts';
import {
  changeMemberPermissions,
  changeMemberRole,
  removeMember,
  useTeamMembers,
} from '#web/features/teams/api/teams.ts';

const TEAM_ROLE_LABELS: Record<TeamRole, string> = { LEAD: 'Lead', MEMBER: 'Member', GUEST: 'Guest' };
const memberName = (m: TeamMember) => `${m.user.firstName} ${m.user.lastName}`;

/** Members: role, permissions, status, last active; change role, change permissions, remove. */
export function MembersTab({ teamId }: { teamId: string }) {
  const { data, error, isLoading } = useTeamMembers(teamId);
  const [editing, setEditing] = useState<TeamMember>();
  const [removing, setRemoving] = useState<TeamMember>();
  if (error) return <ErrorBox message={errorMessage(error)} />;
  if (isLoading || !data) return <PageSpinner />;
  if (data.items.length === 0) return <EmptyBlock title="No team members yet" />;
  const act = async (title: string, action: () => Promise<unknown>) => {
    try {
      await action();
      toaster.success({ title });
    } catch (e) {
      toaster.error({ title: 'Error', description: errorMessage(e) });
    }
  };
  return (
    <>
      <DataTable
        aria-label="Team members"
        scrollArea
        frameProps={{ borderWidth: '1px', rounded: 'md' }}
        rows={data.items}
        rowKey={(m) => m.id}
        rowProps={() => ({ 'data-testid': 'member-row' })}
        columns={[
          {
            key: 'member',
            header: 'Member',
            cell: (m) => (
              <>
                <Text fontWeight="medium">{memberName(m)}</Text>
                <Text fontSize="xs" color="fg.muted">
                  {m.user.email} · {m.user.specialization || 'Team Member'}
                </Text>
              </>
            ),
          },
          {
            key: 'role',
            header: 'Role',
            cell: (m) => (
              <Select
                size="xs"
                width="28"
                aria-label={`Team role of ${memberName(m)}`}
                value={m.role}
                onChange={(role) => act('Role changed', () => changeMemberRole(teamId, m.id, role as TeamRole))}
                options={TEAM_ROLES.map((r) => ({ value: r, label: TEAM_ROLE_LABELS[r] }))}
              />
            ),
          },
          {
            key: 'permissions',
            header: 'Permissions',
            cell: (m) => (
              <Wrap gap="1">
                {m.permissions.map((p) => (
                  <Badge key={p} size="sm">
                    {p === '*' ? 'All' : p}
                  </Badge>
                ))}
              </Wrap>
            ),
          },
          {
            key: 'status',
            header: 'Status',
            cell: (m) => (
              <Badge colorPalette={m.status === 'ACTIVE' ? 'green' : m.status === 'INVITED' ? 'blue' : 'red'}>
                {m.status}
              </Badge>
            ),
          },
          {
            key: 'lastActive',
            header: 'Last Active',
            cell: (m) => (m.lastActive ? formatDateTime(m.lastActive) : 'Never'),
          },
          {
            key: 'actions',
            cell: (m) => (
              <HStack justify="end">
                <Button size="xs" variant="outline" onClick={() => setEditing(m)}>
                  Permissions
                </Button>
                <Button
                  size="xs"
                  variant="ghost"
                  colorPalette="red"
                  aria-label={`Remove ${memberName(m)}`}
                  onClick={() => setRemoving(m)}
                >
                  <LuUserMinus />
                </Button>
              </HStack>
            ),
          },
        ]}
      />
      {editing && <PermissionsDialog teamId={teamId} member={editing} onClose={() => setEditing(undefined)} />}
      {removing && (
        <Modal
          open
          onClose={() => setRemoving(undefined)}
          size="sm"
          title="Remove member"
          footer={
            <HStack>
              <Button variant="outline" onClick={() => setRemoving(undefined)}>
                Cancel
              </Button>
              <Button
                colorPalette="red"
                onClick={() => {
                  const m = removing;
                  setRemoving(undefined);
                  void act('Member removed', () => removeMember(teamId, m.id));
                }}
              >
                Remove
              </Button>
            </HStack>
          }
        >
          <Text>
            {removing.user.firstName} {removing.user.lastName} leaves the team; their account stays.
          </Text>
        </Modal>
      )}
    </>
  );
}

function PermissionsDialog({ teamId, member, onClose }: { teamId: string; member: TeamMember; onClose(): void }) {
  // Only what may be given: a reserved permission a record still holds is not offered (docs/roles-and-permissions.md).
  const [chosen, setChosen] = useState<GrantablePermission[]>(
    member.permissions.includes('*')
      ? [...GRANTABLE_PERMISSIONS]
      : GRANTABLE_PERMISSIONS.filter((p) => member.permissions.includes(p)),
  );
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const save = async () => {
    const parsed = ChangeMemberPermissionsRequestSchema.safeParse({ permissions: chosen });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setSaving(true);
    try {
      await changeMemberPermissions(teamId, member.id, parsed.data.permissions);
      onClose();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      onClose={onClose}
      title={`Permissions of ${member.user.firstName} ${member.user.lastName}`}
      footer={
        <HStack>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={save} loading={saving}>
            Save Permissions
          </Button>
        </HStack>
      }
    >
      <Stack gap="2">
        {GRANTABLE_PERMISSIONS.map((p) => (
          <Checkbox
            key={p}
            checked={chosen.includes(p)}
            onCheckedChange={(on) => setChosen((c) => (on ? [...c, p] : c.filter((x) => x !== p)))}
          >
            {p}
          </Checkbox>
        ))}
        {error && <ErrorBox message={error} />}
      </Stack>
    </Modal>
  );
}
