import { Badge, Button, HStack, Stack, Stat, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { ROLE_TITLES } from '#shared/auth/roles.ts';
import type { Invitation } from '#shared/schemas/api/invitations.ts';
import { EmptyBlock, ErrorBox, PageSpinner } from '#web/components/ui/page-states.tsx';
import { toaster } from '#web/components/ui/toaster.tsx';
import { invitationsApi, useTeamInvitations } from '#web/features/invitations/api/invitations-api.ts';
import { formatExpiry, formatSentAt, INVITATION_TOASTS } from '#web/features/invitations/utils/invitation-format.ts';
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
  const [busy, setBusy] = useState<string>();
  if (invitations.error) return <ErrorBox message={invitations.error.message} />;
  if (!invitations.data) return <PageSpinner />;
  const items = invitations.data.items;
  const counts = {
    pending: items.filter((i) => i.status === 'PENDING').length,
    sent: items.length,
    accepted: items.filter((i) => i.status === 'ACCEPTED').length,
  };

  const act = async (invitation: Invitation, action: 'resend' | 'cancel') => {
    setBusy(invitation.id);
    try {
      if (action === 'resend') {
        await invitationsApi.resendTeam(teamId, invitation.id);
        toaster.create({ type: 'success', ...INVITATION_TOASTS.resent(invitation.fullName ?? invitation.email) });
      } else {
        await invitationsApi.cancelTeam(teamId, invitation.id);
        toaster.create({ type: 'success', title: 'Invitation cancelled', duration: 4000 });
      }
      await invitations.mutate();
    } catch (error) {
      if (action === 'resend') toaster.create({ type: 'error', ...INVITATION_TOASTS.resendFailed });
      else toaster.create({ type: 'error', title: error instanceof Error ? error.message : 'Error' });
    } finally {
      setBusy(undefined);
    }
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
                    {invitation.status === 'PENDING' && (
                      <HStack gap="1">
                        <Button
                          size="xs"
                          variant="outline"
                          loading={busy === invitation.id}
                          onClick={() => act(invitation, 'resend')}
                        >
                          Resend
                        </Button>
                        <Button
                          size="xs"
                          variant="ghost"
                          colorPalette="red"
                          disabled={busy === invitation.id}
                          onClick={() => act(invitation, 'cancel')}
                        >
                          Cancel
                        </Button>
                      </HStack>
                    )}
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
