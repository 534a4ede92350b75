import { Table } from '@chakra-ui/react';
import type { User } from '#shared/schemas/api/organisation.ts';
import { UserRow, type TeamScope } from '#web/features/users/components/user-row.tsx';

type Props = { users: User[]; teamScope: TeamScope; asSuperAdmin: boolean };

export function UsersTable({ users, teamScope, asSuperAdmin }: Props) {
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
            <UserRow key={u.id} user={u} teamScope={teamScope} asSuperAdmin={asSuperAdmin} />
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
