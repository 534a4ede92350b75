import { Button, HStack } from '@chakra-ui/react';
import { useState } from 'react';
import { ROLE_TITLES } from '#shared/auth/roles.ts';
import { ChangeUserRoleRequestSchema, type Team, type User } from '#shared/schemas/api/organisation.ts';
import { Select } from '#web/components/ui/select.tsx';
import { toaster } from '#web/components/ui/toaster.tsx';
import { errorMessage } from '#web/lib/api-error.ts';
import { changeUserRole, moveUserToTeam, setUserEnabled } from '#web/features/users/api/users.ts';

const ASSIGNABLE_ROLES = ChangeUserRoleRequestSchema.shape.role.options;

type Props = { user: User; teams: Team[] | undefined; asSuperAdmin: boolean };

/** Change role, move to team, disable/enable; the server's message is shown when it refuses (e.g. the last admin). */
export function UserRowActions({ user, teams, asSuperAdmin }: Props) {
  const [busy, setBusy] = useState(false);
  const name = `${user.firstName} ${user.lastName}`;
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
  if (user.role === 'SUPER_ADMIN') return null;
  return (
    <HStack gap="2" minW="max-content">
      <Select
        size="xs"
        aria-label={`Role of ${name}`}
        value={user.role}
        disabled={busy}
        onChange={(role) => act('Role changed', () => changeUserRole(user, role, asSuperAdmin))}
        options={ASSIGNABLE_ROLES.map((r) => ({ value: r, label: ROLE_TITLES[r] }))}
      />
      {teams && (
        <Select
          size="xs"
          aria-label={`Team of ${name}`}
          value={user.teamId ?? ''}
          disabled={busy}
          onChange={(teamId) => act('Team changed', () => moveUserToTeam(user, teamId || null, asSuperAdmin))}
          options={[{ value: '', label: 'No team' }, ...teams.map((t) => ({ value: t.id, label: t.name }))]}
        />
      )}
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
    </HStack>
  );
}
