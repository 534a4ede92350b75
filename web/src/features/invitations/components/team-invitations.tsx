import { Badge, Button, HStack, Stack, Stat, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { ROLE_TITLES } from '#shared/vocabulary/roles.ts';
import type { Invitation } from '#shared/schemas/api/invitations.ts';
import { DataTable } from '#web/components/ui/data-table.tsx';
import { EmptyBlock, ErrorBox, PageSpinner } from '#web/components/ui/page-states.tsx';
import { invitationsApi, useTeamInvitations } from '#web/features/invitations/api/invitations-api.ts';
import { formatExpiry, formatSentAt } from '#web/features/invitations/utils/invitation-format.ts';
import { InvitationRowActions, useInvitationActions } from './invitation-row-actions.tsx';
import { InviteTeamMemberModal } from './invite-team-member-modal.tsx';

const STATUS_COLORS: Record<Invitation['status'], string> = {
  PENDING: 'yellow',
  ACCEPTED: 'green',
  DECLINED: 'orange',
  EXPIRED: 'gray',
  CANCELLED: 'red',
};

/**
 * The team page's Invitations tab (docs/screens.md#team-invitations): the team's counts of pending, total sent and
 * accepted (of all its invitations), the "Invite Team Member" modal, the invitations newest first a page at a time
 * ("Load more"), and Resend and Cancel on pending invitations only.
 */
export function TeamInvitations({ teamId }: { teamId: string }) {
  const invitations = useTeamInvitations(teamId);
  const [open, setOpen] = useState(false);
  const { busy, act } = useInvitationActions({
    resend: (i) => invitationsApi.resendTeam(teamId, i.id),
    cancel: (i) => invitationsApi.cancelTeam(teamId, i.id),
    onChanged: () => invitations.mutate(),
  });
  if (invitations.error) return <ErrorBox message={invitations.error.message} />;
  if (!invitations.data) return <PageSpinner />;
  const { items, counts: all } = invitations.data;
  // Pending: stored PENDING and not lapsed, whether its e-mail went out or not.
  const counts = { pending: all.pending + all.sent, sent: all.all, accepted: all.accepted };

  return (
    <Stack gap="4">
      <HStack gap="6" align="end">
        <Stat.Root>
          <Stat.Label>Pending</Stat.Label>
          <Stat.ValueText>{counts.pending}</Stat.ValueText>
        </Stat.Root>
        <Stat.Root>
          <Stat.Label>Total sent</Stat.Label>
          <Stat.ValueText>{counts.sent}</Stat.ValueText>
        </Stat.Root>
        <Stat.Root>
          <Stat.Label>Accepted</Stat.Label>
          <Stat.ValueText>{counts.accepted}</Stat.ValueText>
        </Stat.Root>
        <Button onClick={() => setOpen(true)}>Invite Team Member</Button>
      </HStack>
      <DataTable
        aria-label="Team invitations"
        scrollArea
        frameProps={{ borderWidth: '1px', rounded: 'md' }}
        rows={items}
        rowKey={(i) => i.id}
        empty={<EmptyBlock title="No pending invitations" />}
        columns={[
          {
            key: 'recipient',
            header: 'Recipient',
            cell: (i) => (
              <>
                <Text>{i.fullName ?? i.email}</Text>
                {i.fullName && (
                  <Text fontSize="xs" color="fg.muted">
                    {i.email}
                  </Text>
                )}
              </>
            ),
          },
          { key: 'role', header: 'Role', cell: (i) => ROLE_TITLES[i.role] },
          {
            key: 'status',
            header: 'Status',
            cell: (i) => <Badge colorPalette={STATUS_COLORS[i.status]}>{i.status}</Badge>,
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
                canResend={i.status === 'PENDING'}
                canCancel={i.status === 'PENDING'}
                onAct={act}
              />
            ),
          },
        ]}
      />
      {invitations.loadMore && (
        <Button
          alignSelf="center"
          size="sm"
          variant="outline"
          loading={invitations.loadingMore}
          onClick={invitations.loadMore}
        >
          Load more
        </Button>
      )}
      <InviteTeamMemberModal
        teamId={teamId}
        open={open}
        onOpenChange={setOpen}
        onSent={() => void invitations.mutate()}
      />
    </Stack>
  );
}
