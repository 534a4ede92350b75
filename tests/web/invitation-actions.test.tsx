// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InvitationList } from '#shared/schemas/api/invitations.ts';
import { system } from '#web/components/ui/provider.tsx';
import { invitationsApi } from '#web/features/invitations/api/invitations-api.ts';
import { InviteTeamMemberModal } from '#web/features/invitations/components/invite-team-member-modal.tsx';
import { PendingInvitations } from '#web/features/invitations/components/pending-invitations.tsx';
import { invitationFixture } from '#tests/helpers/fixtures.ts';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const pending = invitationFixture({
  departmentId: null,
  department: null,
  listStatus: 'pending',
  sentAt: null,
});
const list: InvitationList = {
  items: [pending],
  counts: { all: 1, pending: 1, sent: 0, accepted: 0, expired: 0 },
  nextToken: null,
};

const wrap = (ui: React.ReactNode) => render(<ChakraProvider value={system}>{ui}</ChakraProvider>);

describe('invitation row actions', () => {
  it('resends and cancels a pending invitation through the API, then reloads the list', async () => {
    const resend = vi.spyOn(invitationsApi, 'resend').mockResolvedValue(pending);
    const cancel = vi.spyOn(invitationsApi, 'cancel').mockResolvedValue({ ...pending, status: 'CANCELLED' });
    const onChanged = vi.fn();
    wrap(<PendingInvitations list={list} onChanged={onChanged} onRefresh={vi.fn()} />);
    const row = screen.getByText('ann@x.test').closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Resend' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalledTimes(1));
    expect(resend).toHaveBeenCalledWith('i1');
    fireEvent.click(within(row).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalledTimes(2));
    expect(cancel).toHaveBeenCalledWith('i1');
  });
});

describe('Invite Team Member', () => {
  it("shows the schema's message when invalid, and sends, reports and closes when valid", async () => {
    const send = vi.spyOn(invitationsApi, 'sendToTeam').mockResolvedValue(pending);
    const onSent = vi.fn();
    const onOpenChange = vi.fn();
    wrap(<InviteTeamMemberModal teamId="t1" open onOpenChange={onOpenChange} onSent={onSent} />);
    const email = document.querySelector<HTMLInputElement>('input[name="email"]')!;
    fireEvent.change(email, { target: { value: 'nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send Invitation' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeTruthy();
    expect(send).not.toHaveBeenCalled();
    fireEvent.change(email, { target: { value: 'ann@x.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send Invitation' }));
    await waitFor(() => expect(onSent).toHaveBeenCalled());
    expect(send).toHaveBeenCalledWith('t1', expect.objectContaining({ email: 'ann@x.test', role: 'MEMBER' }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it("sends a member's invitation without permissions while the team's defaults apply, and the ones chosen otherwise", async () => {
    // Arrange
    const send = vi.spyOn(invitationsApi, 'sendToTeam').mockResolvedValue(pending);
    wrap(<InviteTeamMemberModal teamId="t1" open onOpenChange={vi.fn()} onSent={vi.fn()} />);
    const email = document.querySelector<HTMLInputElement>('input[name="email"]')!;
    fireEvent.change(email, { target: { value: 'ann@x.test' } });
    const hint = screen.getByTestId('team-default-permissions').textContent;

    // Act: first with the team's defaults, then with a member's defaults less Upload DICOM.
    fireEvent.click(screen.getByRole('button', { name: 'Send Invitation' }));
    await waitFor(() => expect(send).toHaveBeenCalledTimes(1));
    // The sent form starts over once the send has finished: the next one is filled after that.
    await waitFor(() => expect(email.value).toBe(''));
    fireEvent.change(email, { target: { value: 'ann@x.test' } });
    fireEvent.click(screen.getByRole('checkbox', { name: "Use the team's default permissions" }));
    fireEvent.click(await screen.findByText('Upload DICOM'));
    fireEvent.click(screen.getByRole('button', { name: 'Send Invitation' }));
    await waitFor(() => expect(send).toHaveBeenCalledTimes(2));

    // Assert
    expect(hint).toBe("The member gets the team's default permissions of new members when they join.");
    expect(send.mock.calls[0]![1]).not.toHaveProperty('permissions');
    expect(send.mock.calls[1]![1]).toMatchObject({
      role: 'MEMBER',
      permissions: ['VIEW_DATASETS', 'UPLOAD_DICOM', 'SHARE_DATA'],
    });
  });
});
