import { Badge, Table, Text } from '@chakra-ui/react';
import { ROLE_TITLES } from '#shared/auth/roles.ts';
import type { Team, User } from '#shared/schemas/api/organisation.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { UserRowActions } from '#web/features/users/components/user-row-actions.tsx';

const STATUS_COLORS = { ACTIVE: 'green', INVITED: 'blue', DISABLED: 'red' } as const;

type Props = { users: User[]; teams: Team[] | undefined; asSuperAdmin: boolean };

export function UsersTable({ users, teams, asSuperAdmin }: Props) {
  return (
    <Table.ScrollArea borderWidth="1px" rounded="md">
      <Table.Root size="sm">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Name</Table.ColumnHeader>
            <Table.ColumnHeader>Email</Table.ColumnHeader>
            <Table.ColumnHeader>Role</Table.ColumnHeader>
            <Table.ColumnHeader>Status</Table.ColumnHeader>
            <Table.ColumnHeader>Team</Table.ColumnHeader>
            <Table.ColumnHeader>Department</Table.ColumnHeader>
            <Table.ColumnHeader>Last Login</Table.ColumnHeader>
            <Table.ColumnHeader>Actions</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {users.map((u) => (
            <Table.Row key={u.id} data-testid="user-row">
              <Table.Cell>
                {u.firstName} {u.lastName}
              </Table.Cell>
              <Table.Cell>{u.email}</Table.Cell>
              <Table.Cell>{ROLE_TITLES[u.role]}</Table.Cell>
              <Table.Cell>
                <Badge colorPalette={STATUS_COLORS[u.status]}>{u.status}</Badge>
              </Table.Cell>
              <Table.Cell>{u.teamName ?? <Text color="fg.muted">No team</Text>}</Table.Cell>
              <Table.Cell>{u.department ?? ''}</Table.Cell>
              <Table.Cell>{u.lastLogin ? formatDateTime(u.lastLogin) : <Text color="fg.muted">Never</Text>}</Table.Cell>
              <Table.Cell>
                <UserRowActions user={u} teams={teams} asSuperAdmin={asSuperAdmin} />
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
