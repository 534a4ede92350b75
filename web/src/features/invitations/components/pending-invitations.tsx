import { Badge, Box, Button, HStack, Input, Stack, Table, Text } from '@chakra-ui/react';
import { useMemo, useState } from 'react';
import { ROLE_TITLES } from '#shared/auth/roles.ts';
import { ADMIN_LIST_STATUSES, type Invitation, type InvitationList } from '#shared/schemas/api/invitations.ts';
import { EmptyBlock } from '#web/components/ui/page-states.tsx';
import { toaster } from '#web/components/ui/toaster.tsx';
import { invitationsApi } from '#web/features/invitations/api/invitations-api.ts';
import {
  formatExpiry,
  formatSentAt,
  INVITATION_TOASTS,
  LIST_STATUS_LABELS,
  matchesSearch,
} from '#web/features/invitations/utils/invitation-format.ts';

type Filter = 'all' | (typeof ADMIN_LIST_STATUSES)[number];
const FILTERS: { value: Filter; label: string }[] = [
  { value: 'all', label: 'All' },
  ...ADMIN_LIST_STATUSES.map((s) => ({ value: s, label: LIST_STATUS_LABELS[s].label })),
];

type Props = { list: InvitationList; onChanged(): void; onRefresh(): void };

/**
 * The Pending tab (docs/screens.md#invitation-center): filters with counts, search over name, e-mail and department,
 * "Showing X of Y invitations". Resend only for pending or expired invitations; Cancel while an invitation is pending.
 */
export function PendingInvitations({ list, onChanged, onRefresh }: Props) {
  const [filter, setFilter] = useState<Filter>('all');
  const [search, setSearch] = useState('');
  const [busy, setBusy] = useState<string>();
  const shown = useMemo(
    () => list.items.filter((i) => (filter === 'all' || i.listStatus === filter) && matchesSearch(i, search)),
    [list.items, filter, search],
  );

  const act = async (invitation: Invitation, action: 'resend' | 'cancel') => {
    setBusy(invitation.id);
    try {
      if (action === 'resend') {
        await invitationsApi.resend(invitation.id);
        toaster.create({ type: 'success', ...INVITATION_TOASTS.resent(invitation.fullName ?? invitation.email) });
      } else {
        await invitationsApi.cancel(invitation.id);
        toaster.create({ type: 'success', title: 'Invitation cancelled', duration: 4000 });
      }
      onChanged();
    } catch (error) {
      if (action === 'resend') toaster.create({ type: 'error', ...INVITATION_TOASTS.resendFailed });
      else toaster.create({ type: 'error', title: error instanceof Error ? error.message : 'Error' });
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <Stack gap="4">
      <HStack wrap="wrap" gap="2">
        {FILTERS.map((f) => (
          <Button
            key={f.value}
            size="sm"
            variant={filter === f.value ? 'solid' : 'outline'}
            onClick={() => setFilter(f.value)}
            aria-pressed={filter === f.value}
          >
            {f.label} ({list.counts[f.value]})
          </Button>
        ))}
        <Box flex="1" />
        <Button size="sm" variant="ghost" onClick={onRefresh}>
          Refresh
        </Button>
      </HStack>
      <HStack gap="3">
        <Input
          placeholder="Search by name, email or department"
          aria-label="Search invitations"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          maxW="md"
        />
        <Text fontSize="sm" color="fg.muted" data-testid="invitations-shown">
          Showing {shown.length} of {list.items.length} invitations
        </Text>
        {(filter !== 'all' || search) && (
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              setFilter('all');
              setSearch('');
            }}
          >
            Clear filters
          </Button>
        )}
      </HStack>
      {list.items.length === 0 ? (
        <EmptyBlock title="No pending invitations" />
      ) : shown.length === 0 ? (
        <EmptyBlock title="No matching invitations" />
      ) : (
        <Table.ScrollArea borderWidth="1px" rounded="md">
          <Table.Root size="sm" aria-label="Invitations">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Name</Table.ColumnHeader>
                <Table.ColumnHeader>Email</Table.ColumnHeader>
                <Table.ColumnHeader>Role</Table.ColumnHeader>
                <Table.ColumnHeader>Department</Table.ColumnHeader>
                <Table.ColumnHeader>Team</Table.ColumnHeader>
                <Table.ColumnHeader>Status</Table.ColumnHeader>
                <Table.ColumnHeader>Sent</Table.ColumnHeader>
                <Table.ColumnHeader>Expires</Table.ColumnHeader>
                <Table.ColumnHeader>Actions</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {shown.map((invitation) => {
                const badge = LIST_STATUS_LABELS[invitation.listStatus];
                const canResend = invitation.listStatus === 'pending' || invitation.listStatus === 'expired';
                const canCancel = invitation.status === 'PENDING';
                return (
                  <Table.Row key={invitation.id}>
                    <Table.Cell>{invitation.fullName ?? '—'}</Table.Cell>
                    <Table.Cell>{invitation.email}</Table.Cell>
                    <Table.Cell>{ROLE_TITLES[invitation.role]}</Table.Cell>
                    <Table.Cell>{invitation.department ?? '—'}</Table.Cell>
                    <Table.Cell>{invitation.team ?? '—'}</Table.Cell>
                    <Table.Cell>
                      <Badge colorPalette={badge.color}>{badge.label}</Badge>
                    </Table.Cell>
                    <Table.Cell>{formatSentAt(invitation.sentAt)}</Table.Cell>
                    <Table.Cell>{formatExpiry(invitation.expiresAt)}</Table.Cell>
                    <Table.Cell>
                      <HStack gap="1">
                        {canResend && (
                          <Button
                            size="xs"
                            variant="outline"
                            loading={busy === invitation.id}
                            onClick={() => act(invitation, 'resend')}
                          >
                            Resend
                          </Button>
                        )}
                        {canCancel && (
                          <Button
                            size="xs"
                            variant="ghost"
                            colorPalette="red"
                            disabled={busy === invitation.id}
                            onClick={() => act(invitation, 'cancel')}
                          >
                            Cancel
                          </Button>
                        )}
                      </HStack>
                    </Table.Cell>
                  </Table.Row>
                );
              })}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
      )}
    </Stack>
  );
}
