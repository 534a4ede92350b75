import { Badge, Box, Button, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useMemo, useState } from 'react';
import { ROLE_TITLES } from '#shared/vocabulary/roles.ts';
import { ADMIN_LIST_STATUSES, type InvitationList } from '#shared/schemas/api/invitations.ts';
import { DataTable } from '#web/components/ui/data-table.tsx';
import { EmptyBlock } from '#web/components/ui/page-states.tsx';
import { invitationsApi } from '#web/features/invitations/api/invitations-api.ts';
import {
  formatExpiry,
  formatSentAt,
  LIST_STATUS_LABELS,
  matchesSearch,
} from '#web/features/invitations/utils/invitation-format.ts';
import { InvitationRowActions, useInvitationActions } from './invitation-row-actions.tsx';

export type Filter = 'all' | (typeof ADMIN_LIST_STATUSES)[number];
const FILTERS: { value: Filter; label: string }[] = [
  { value: 'all', label: 'All' },
  ...ADMIN_LIST_STATUSES.map((s) => ({ value: s, label: LIST_STATUS_LABELS[s].label })),
];

type Props = {
  list: InvitationList;
  onChanged(): void;
  onRefresh(): void;
  /** Loads the next page of older invitations; absent when all are loaded. */
  onLoadMore?: () => void;
  loadingMore?: boolean;
  /** Told of a new filter, so the list is asked for that status alone (the rows loaded are filtered meanwhile). */
  onFilterChange?: (filter: Filter) => void;
};

/**
 * The Pending tab (docs/screens.md#invitation-center): filters with the hospital's counts, search over name, e-mail and
 * department among the invitations loaded (newest first, a page at a time: "Load more" for older ones), "Showing X of Y
 * invitations". Resend only for pending or expired invitations; Cancel while an invitation is pending.
 */
export function PendingInvitations({ list, onChanged, onRefresh, onLoadMore, loadingMore, onFilterChange }: Props) {
  const [filter, setShownFilter] = useState<Filter>('all');
  const setFilter = (next: Filter) => {
    setShownFilter(next);
    onFilterChange?.(next);
  };
  const [search, setSearch] = useState('');
  const { busy, act } = useInvitationActions({
    resend: (i) => invitationsApi.resend(i.id),
    cancel: (i) => invitationsApi.cancel(i.id),
    onChanged,
  });
  const shown = useMemo(
    () => list.items.filter((i) => (filter === 'all' || i.listStatus === filter) && matchesSearch(i, search)),
    [list.items, filter, search],
  );

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
          // The search runs over the invitations loaded so far; with older pages left, the hint says so.
          placeholder={
            onLoadMore
              ? 'Search the loaded invitations by name, email or department'
              : 'Search by name, email or department'
          }
          aria-label="Search invitations"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          maxW="md"
        />
        <Text fontSize="sm" color="fg.muted" data-testid="invitations-shown">
          Showing {shown.length} of {list.counts.all} invitations
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
      ) : (
        <DataTable
          aria-label="Invitations"
          scrollArea
          frameProps={{ borderWidth: '1px', rounded: 'md' }}
          rows={shown}
          rowKey={(i) => i.id}
          empty={<EmptyBlock title="No matching invitations" />}
          columns={[
            { key: 'name', header: 'Name', cell: (i) => i.fullName ?? '—' },
            { key: 'email', header: 'Email', cell: (i) => i.email },
            { key: 'role', header: 'Role', cell: (i) => ROLE_TITLES[i.role] },
            { key: 'department', header: 'Department', cell: (i) => i.department ?? '—' },
            { key: 'team', header: 'Team', cell: (i) => i.team ?? '—' },
            {
              key: 'status',
              header: 'Status',
              cell: (i) => {
                const badge = LIST_STATUS_LABELS[i.listStatus];
                return <Badge colorPalette={badge.color}>{badge.label}</Badge>;
              },
            },
            { key: 'sent', header: 'Sent', cell: (i) => formatSentAt(i.sentAt) },
            { key: 'expires', header: 'Expires', cell: (i) => formatExpiry(i.expiresAt) },
            {
              key: 'actions',
              header: 'Actions',
              cell: (i) => (
                <InvitationRowActions
                  invitation={i}
                  busy={busy}
                  canResend={i.listStatus === 'pending' || i.listStatus === 'expired'}
                  canCancel={i.status === 'PENDING'}
                  onAct={act}
                />
              ),
            },
          ]}
        />
      )}
      {onLoadMore && (
        <Button alignSelf="center" size="sm" variant="outline" loading={loadingMore} onClick={onLoadMore}>
          Load more
        </Button>
      )}
    </Stack>
  );
}
