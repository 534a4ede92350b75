import { resendInvitation } from '#shared/domain/invitations/manage-invitations.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler(
  'POST /api/teams/{teamId}/invitations/{invitationId}/resend',
  async ({ pathParameters }, caller, deps) =>
    resendInvitation(pathParameters.invitationId, caller, deps, pathParameters.teamId),
);
