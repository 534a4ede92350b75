import { Heading, Stack, Tabs, Text } from '@chakra-ui/react';
import { ErrorBox, PageSpinner } from '#web/components/ui/page-states.tsx';
import { useHospitalInvitations, useOrganisation } from '#web/features/invitations/api/invitations-api.ts';
import { BulkInvitations } from './bulk-invitations.tsx';
import { useState } from 'react';
import { PendingInvitations, type Filter } from './pending-invitations.tsx';
import { SingleInvitationForm } from './single-invitation-form.tsx';

/** The hospital admin's Invitation Center (docs/screens.md#invitation-center): three tabs. */
export function InvitationCenter() {
  const organisation = useOrganisation();
  const [filter, setFilter] = useState<Filter>('all');
  const invitations = useHospitalInvitations(filter === 'all' ? undefined : filter);
  const refresh = () => void invitations.mutate();
  const departments = organisation.data?.departments ?? [];
  const teams = organisation.data?.teams ?? [];

  return (
    <Stack gap="6">
      <Stack gap="1">
        <Heading size="xl">Invitation Center</Heading>
        <Text color="fg.muted">Invite team leads, team members and guests to your hospital.</Text>
      </Stack>
      {organisation.error && <ErrorBox message={organisation.error.message} />}
      <Tabs.Root defaultValue="single" lazyMount>
        <Tabs.List>
          <Tabs.Trigger value="single">Single Invitation</Tabs.Trigger>
          <Tabs.Trigger value="bulk">Bulk Invitations</Tabs.Trigger>
          <Tabs.Trigger value="pending">Pending ({invitations.data?.counts.all ?? 0})</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="single">
          <SingleInvitationForm departments={departments} teams={teams} onSent={refresh} />
        </Tabs.Content>
        <Tabs.Content value="bulk">
          <BulkInvitations departments={departments} teams={teams} onSent={refresh} />
        </Tabs.Content>
        <Tabs.Content value="pending">
          {invitations.error ? (
            <ErrorBox message={invitations.error.message} />
          ) : !invitations.data ? (
            <PageSpinner />
          ) : (
            <PendingInvitations
              list={invitations.data}
              onChanged={refresh}
              onRefresh={refresh}
              onLoadMore={invitations.loadMore}
              loadingMore={invitations.loadingMore}
              onFilterChange={setFilter}
            />
          )}
        </Tabs.Content>
      </Tabs.Root>
    </Stack>
  );
}
