import { Button, Heading, HStack, Input, InputGroup, Stack, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { LuSearch, LuUserPlus, LuUsers } from 'react-icons/lu';
import { Link, useSearchParams } from 'react-router-dom';
import { HospitalPageSchema } from '#shared/schemas/api/organisation.ts';
import { ROLE_TITLES, ROLES, type Role } from '#shared/vocabulary/roles.ts';
import { CursorPager } from '#web/components/ui/cursor-pager.tsx';
import { EmptyBlock, ErrorBox, PageSpinner } from '#web/components/ui/page-states.tsx';
import { SearchSelect } from '#web/components/ui/search-select.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { errorMessage } from '#web/lib/api-error.ts';
import { useDepartments } from '#web/lib/departments.ts';
import { useCursorStack } from '#web/lib/use-cursor-stack.ts';
import { useDebouncedValue } from '#web/lib/use-debounced-value.ts';
import { useFirstHospital, useUsers } from '#web/features/users/api/users.ts';
import { UsersTable } from '#web/features/users/components/users-table.tsx';
import { NO_USER_FILTERS, userListQuery, type UserFilters } from '#web/features/users/utils/user-query.ts';

type Props = { asSuperAdmin: boolean; invitationsHref: string };

/**
 * Users (docs/screens.md#users-page): the super admin picks a hospital (the card's Manage button preselects it),
 * a hospital admin sees their own. Search and filters are answered by the server, page by page.
 */
export function UserManagement({ asSuperAdmin, invitationsHref }: Props) {
  const [params, setParams] = useSearchParams();
  const hospitalId = asSuperAdmin ? (params.get('hospitalId') ?? '') : '';
  const [filters, setFilters] = useState<UserFilters>(NO_USER_FILTERS);
  const search = useDebouncedValue(filters.search);
  const effective = { ...filters, search };
  const cursor = useCursorStack(JSON.stringify([effective, hospitalId]));
  const firstHospitalPage = useFirstHospital(asSuperAdmin);
  const waitingForHospital = asSuperAdmin && !hospitalId;
  const users = useUsers(waitingForHospital ? null : userListQuery(effective, hospitalId || undefined, cursor.token));
  // The super admin always looks at one hospital's users: the first one until another is picked.
  const firstHospital = firstHospitalPage.data?.items[0]?.id;
  useEffect(() => {
    if (waitingForHospital && firstHospital) setParams({ hospitalId: firstHospital }, { replace: true });
  }, [waitingForHospital, firstHospital, setParams]);
  // The super admin's Department filter and move-to-team choices are those of the chosen hospital.
  const departments = useDepartments(!waitingForHospital, hospitalId || undefined);

  return (
    <Stack gap="6">
      <HStack justify="space-between" wrap="wrap" gap="3">
        <Stack gap="1">
          <Heading size="2xl">Users</Heading>
          <Text color="fg.muted">
            {asSuperAdmin ? 'Users of the chosen hospital' : 'Users of your hospital: roles, teams and access'}
          </Text>
        </Stack>
        {!asSuperAdmin && (
          <Button asChild>
            <Link to={invitationsHref}>
              <LuUserPlus /> Invite User
            </Link>
          </Button>
        )}
      </HStack>
      <HStack gap="3" wrap="wrap">
        {asSuperAdmin && (
          <SearchSelect
            label="Hospital"
            path="/api/hospitals"
            schema={HospitalPageSchema}
            searchable
            width="96"
            value={hospitalId}
            selectedLabel={firstHospitalPage.data?.items.find((h) => h.id === hospitalId)?.name}
            onChange={(v) => {
              // Another hospital's departments: the filter starts over.
              setFilters({ ...filters, departmentId: '' });
              setParams({ hospitalId: v });
            }}
            toOption={(h) => ({ value: h.id, label: h.name })}
          />
        )}
        <InputGroup startElement={<LuSearch />} flex="1" minW="60">
          <Input
            placeholder="Search by name or email"
            aria-label="Search users"
            value={filters.search}
            onChange={(e) => setFilters({ ...filters, search: e.target.value })}
          />
        </InputGroup>
        <Select
          aria-label="Role"
          width="48"
          value={filters.role}
          placeholder="All roles"
          onChange={(v) => setFilters({ ...filters, role: v as Role | '' })}
          options={ROLES.map((r) => ({ value: r, label: ROLE_TITLES[r] }))}
        />
        <Select
          aria-label="Department"
          width="48"
          value={filters.departmentId}
          placeholder="All departments"
          onChange={(v) => setFilters({ ...filters, departmentId: v })}
          options={(departments.data?.items ?? []).map((d) => ({ value: d.id, label: d.name }))}
        />
      </HStack>
      {users.error && <ErrorBox message={errorMessage(users.error)} />}
      {users.isLoading && !users.data && <PageSpinner />}
      {users.data && users.data.items.length === 0 && <EmptyBlock icon={<LuUsers />} title="No users found" />}
      {firstHospitalPage.data?.items.length === 0 && <EmptyBlock icon={<LuUsers />} title="No hospitals found" />}
      {users.data && users.data.items.length > 0 && (
        <UsersTable
          users={users.data.items}
          teamScope={waitingForHospital ? null : hospitalId ? { hospitalId } : {}}
          asSuperAdmin={asSuperAdmin}
        />
      )}
      <CursorPager
        page={cursor.page}
        hasPrevious={cursor.hasPrevious}
        hasNext={!!users.data?.nextToken}
        onPrevious={cursor.previous}
        onNext={() => cursor.next(users.data?.nextToken)}
        total={users.data?.total}
      />
    </Stack>
  );
}
