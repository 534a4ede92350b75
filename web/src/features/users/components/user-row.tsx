import { Badge, Button, HStack, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { ROLE_TITLES } from '#shared/vocabulary/roles.ts';
import { ChangeUserRoleRequestSchema, TeamPageSchema, type User } from '#shared/schemas/api/organisation.ts';
import { Modal } from '#web/components/ui/modal.tsx';
import { SearchSelect } from '#web/components/ui/search-select.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { toaster } from '#web/components/ui/toaster.tsx';
import { errorMessage } from '#web/lib/api-error.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { changeUserRole, moveUserToTeam, resetUserMfa, setUserEnabled } from '#web/features/users/api/users.ts';

const ASSIGNABLE_ROLES = ChangeUserRoleRequestSchema.shape.role.options;
const STATUS_COLORS = { ACTIVE: 'green', INVITED: 'blue', DISABLED: 'red' } as const;

/** Whose teams the Team cell offers (the super admin's chosen hospital), or null while none is known. */
export type TeamScope = { hospitalId?: string } | null;
type Props = { user: User; teamScope: TeamScope; asSuperAdmin: boolean };

/**
 * One user: the Role cell changes the role and the Team cell moves the user (a hospital admin, who knows the teams);
 * Disable/Enable closes the row; Reset two-factor (after a confirmation) turns off a user's authenticator app, for a
 * user who lost it. The server's message is shown when it refuses (e.g. the last active hospital admin).
 */
export function UserRow({ user, teamScope, asSuperAdmin }: Props) {
  const [busy, setBusy] = useState(false);
  const [confirmReset, setConfirmReset] = useState(false);
  const name = `${user.firstName} ${user.lastName}`;
  const manageable = user.role !== 'SUPER_ADMIN';
  const act = async (what: string, action: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await action();
      toaster.success({ title: what, description: name });
    } catch (e) {
      toaster.error({ title: 'Error', description: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Table.Row data-testid="user-row">
      <Table.Cell>{name}</Table.Cell>
      <Table.Cell>{user.email}</Table.Cell>
      <Table.Cell>
        {manageable ? (
          <Select
            size="xs"
            width="36"
            aria-label={`Role of ${name}`}
            value={user.role}
            disabled={busy}
            onChange={(role) => act('Role changed', () => changeUserRole(user, role, asSuperAdmin))}
            options={ASSIGNABLE_ROLES.map((r) => ({ value: r, label: ROLE_TITLES[r] }))}
          />
        ) : (
          ROLE_TITLES[user.role]
        )}
      </Table.Cell>
      <Table.Cell>
        <Badge colorPalette={STATUS_COLORS[user.status]}>{user.status}</Badge>
      </Table.Cell>
      <Table.Cell>
        {manageable && teamScope ? (
          <SearchSelect
            label={`Team of ${name}`}
            path="/api/teams"
            schema={TeamPageSchema}
            query={teamScope.hospitalId ? { hospitalId: teamScope.hospitalId } : {}}
            width="48"
            value={user.teamId ?? ''}
            selectedLabel={user.teamName}
            placeholder="No team"
            disabled={busy}
            onChange={(teamId) => act('Team changed', () => moveUserToTeam(user, teamId || null, asSuperAdmin))}
            toOption={(t) => ({ value: t.id, label: t.name })}
          />
        ) : (
          (user.teamName ?? <Text color="fg.muted">No team</Text>)
        )}
      </Table.Cell>
      <Table.Cell>{user.department ?? ''}</Table.Cell>
      <Table.Cell>{user.lastLogin ? formatDateTime(user.lastLogin) : <Text color="fg.muted">Never</Text>}</Table.Cell>
      <Table.Cell>
        {manageable && (
          <HStack gap="2">
            {user.status === 'DISABLED' ? (
              <Button
                size="xs"
                variant="outline"
                loading={busy}
                onClick={() => act('User enabled', () => setUserEnabled(user, true, asSuperAdmin))}
              >
                Enable
              </Button>
            ) : (
              <Button
                size="xs"
                variant="outline"
                colorPalette="red"
                loading={busy}
                onClick={() => act('User disabled', () => setUserEnabled(user, false, asSuperAdmin))}
              >
                Disable
              </Button>
            )}
            {user.status !== 'INVITED' && (
              <Button size="xs" variant="ghost" disabled={busy} onClick={() => setConfirmReset(true)}>
                Reset two-factor
              </Button>
            )}
          </HStack>
        )}
        <Modal
          open={confirmReset}
          onClose={() => setConfirmReset(false)}
          title="Reset two-factor"
          size="sm"
          footer={
            <>
              <Button variant="outline" onClick={() => setConfirmReset(false)}>
                Cancel
              </Button>
              <Button
                colorPalette="red"
                loading={busy}
                onClick={async () => {
                  await act('Two-factor reset', () => resetUserMfa(user, asSuperAdmin));
                  setConfirmReset(false);
                }}
              >
                Reset two-factor
              </Button>
            </>
          }
        >
          <Text>
            {name} will be signed out everywhere and can sign in with their password alone, then set up an authenticator
            app again.
          </Text>
        </Modal>
      </Table.Cell>
    </Table.Row>
  );
}
