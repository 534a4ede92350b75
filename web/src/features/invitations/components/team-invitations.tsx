import { Badge, Button, HStack, Stack, Stat, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { ROLE_TITLES } from '#shared/vocabulary/roles.ts';
import type { Invitation } from '#shared/schemas/api/invitations.ts';
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
 * The team page's Invitations tab (docs/screens.md#team-invitations): counts of pending, total sent and accepted,
 * the "Invite Team Member" modal, and Resend and Cancel on pending invitations only.
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
  const items = invitations.data.items;
  const counts = {
    pending: items.filter((i) => i.status === 'PENDING').length,
    sent: items.length,
    accepted: items.filter((i) => i.status === 'ACCEPTED').length,
  };

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
      {items.length === 0 ? (
        <EmptyBlock title="No pending invitations" />
      ) : (
        <Table.ScrollArea borderWidth="1px" rounded="md">
          <Table.Root size="sm" aria-label="Team invitations">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Recipient</Table.ColumnHeader>
                <Table.ColumnHeader>Role</Table.ColumnHeader>
                <Table.ColumnHeader>Status</Table.ColumnHeader>
                <Table.ColumnHeader>Sent</Table.ColumnHeader>
                <Table.ColumnHeader>Expires</Table.ColumnHeader>
                <Table.ColumnHeader>Actions</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {items.map((invitation) => (
                <Table.Row key={invitation.id}>
                  <Table.Cell>
                    <Text>{invitation.fullName ?? invitation.email}</Text>
                    {invitation.fullName && (
                      <Text fontSize="xs" color="fg.muted">
                        {invitation.email}
                      </Text>
                    )}
                  </Table.Cell>
                  <Table.Cell>{ROLE_TITLES[invitation.role]}</Table.Cell>
                  <Table.Cell>
                    <Badge colorPalette={STATUS_COLORS[invitation.status]}>{invitation.status}</Badge>
                  </Table.Cell>
                  <Table.Cell>{formatSentAt(invitation.sentAt)}</Table.Cell>
                  <Table.Cell>{formatExpiry(invitation.expiresAt)}</Table.Cell>
                  <Table.Cell>
                    <InvitationRowActions
                      invitation={invitation}
                      busy={busy}
                      canResend={invitation.status === 'PENDING'}
                      canCancel={invitation.status === 'PENDING'}
                      onAct={act}
                    />
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
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
