import { Button, HStack } from '@chakra-ui/react';
import { useState } from 'react';
import type { Invitation } from '#shared/schemas/api/invitations.ts';
import { toaster } from '#web/components/ui/toaster.tsx';
import { INVITATION_TOASTS } from '#web/features/invitations/utils/invitation-format.ts';

type InvitationAction = 'resend' | 'cancel';

type ActionCalls = {
  resend(invitation: Invitation): Promise<unknown>;
  cancel(invitation: Invitation): Promise<unknown>;
  onChanged(): unknown;
};

/**
 * Resend and Cancel on one invitation row with the Invitation Center's toasts (docs/error-catalogue.md#invitations);
 * `busy` names the invitation whose action is in flight.
 */
export function useInvitationActions({ resend, cancel, onChanged }: ActionCalls) {
  const [busy, setBusy] = useState<string>();
  const act = async (invitation: Invitation, action: InvitationAction) => {
    setBusy(invitation.id);
    try {
      if (action === 'resend') {
        await resend(invitation);
        toaster.create({ type: 'success', ...INVITATION_TOASTS.resent(invitation.fullName ?? invitation.email) });
      } else {
        await cancel(invitation);
        toaster.create({ type: 'success', title: 'Invitation cancelled', duration: 4000 });
      }
      await onChanged();
    } catch (error) {
      if (action === 'resend') toaster.create({ type: 'error', ...INVITATION_TOASTS.resendFailed });
      else toaster.create({ type: 'error', title: error instanceof Error ? error.message : 'Error' });
    } finally {
      setBusy(undefined);
    }
  };
  return { busy, act };
}

type RowActionsProps = {
  invitation: Invitation;
  busy: string | undefined;
  canResend: boolean;
  canCancel: boolean;
  onAct(invitation: Invitation, action: InvitationAction): void;
};

/** The row's Resend and Cancel buttons, each shown only where the row allows it. */
export function InvitationRowActions({ invitation, busy, canResend, canCancel, onAct }: RowActionsProps) {
  if (!canResend && !canCancel) return null;
  return (
    <HStack gap="1">
      {canResend && (
        <Button
          size="xs"
          variant="outline"
          loading={busy === invitation.id}
          onClick={() => onAct(invitation, 'resend')}
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
          onClick={() => onAct(invitation, 'cancel')}
        >
          Cancel
        </Button>
      )}
    </HStack>
  );
}
