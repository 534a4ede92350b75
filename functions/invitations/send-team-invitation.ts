import { EmailTakenError } from '#shared/domain/errors.ts';
import { inviteToTeam } from '#shared/domain/invitations/send-invitation.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';
import { countForHospital } from '#functions/lib/metrics.ts';

/** As POST /api/invitations: one e-mail per team and address (functions/lib/idempotency.ts). */
export const handler = httpHandler(
  'POST /api/teams/{teamId}/invitations',
  async ({ body, pathParameters }, caller, deps) =>
    deps.idempotency.once(
      {
        hospitalId: caller.hospitalId,
        operation: 'invitation-send',
        key: { teamId: pathParameters.teamId, email: body.email.trim().toLowerCase(), userId: caller.userId },
        // The address as the rules compare it (docs/domain.md#invitations): trimmed, any case.
        payload: { ...body, email: body.email.trim().toLowerCase() },
        onMismatch: () => new EmailTakenError('EMAIL_ALREADY_INVITED'),
      },
      async () => {
        const invitation = await inviteToTeam(pathParameters.teamId, body, caller, deps);
        countForHospital('InvitationsSent', caller.hospitalId);
        return invitation;
      },
    ),
);
