import type { Caller } from '#shared/domain/auth/caller.ts';
import { EmailTakenError } from '#shared/domain/errors.ts';
import { inviteOne } from '#shared/domain/invitations/send-invitation.ts';
import type { SingleInvitation } from '#shared/schemas/api/invitations.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';
import type { Idempotency } from '#functions/lib/idempotency.ts';
import { countForHospital } from '#functions/lib/metrics.ts';

/**
 * One invitation e-mail per address and placement (functions/lib/idempotency.ts): a retry of the same invitation
 * gets the invitation already made, without a second e-mail; the same address asked for with other values is refused
 * as the invitation rules refuse it (EMAIL_ALREADY_INVITED).
 */
export function sendInvitationOnce(
  body: SingleInvitation,
  caller: Caller,
  deps: Parameters<typeof inviteOne>[2] & { idempotency: Idempotency },
): ReturnType<typeof inviteOne> {
  return deps.idempotency.once(
    {
      hospitalId: caller.hospitalId,
      operation: 'invitation-send',
      key: { teamId: body.teamId ?? null, email: body.email.trim().toLowerCase(), userId: caller.userId },
      // The address as the rules compare it (docs/domain.md#invitations): trimmed, any case.
      payload: { ...body, email: body.email.trim().toLowerCase() },
      onMismatch: () => new EmailTakenError('EMAIL_ALREADY_INVITED'),
    },
    async () => {
      const invitation = await inviteOne(body, caller, deps);
      countForHospital('InvitationsSent', caller.hospitalId);
      return invitation;
    },
  );
}

export const handler = httpHandler('POST /api/invitations', async ({ body }, caller, deps) =>
  sendInvitationOnce(body, caller, deps),
);
