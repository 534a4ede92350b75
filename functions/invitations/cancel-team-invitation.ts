import { cancelInvitation } from '#shared/domain/invitations/manage-invitations.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler(
  'DELETE /api/teams/{teamId}/invitations/{invitationId}',
  async ({ pathParameters }, caller, deps) =>
    cancelInvitation(pathParameters.invitationId, caller, deps, pathParameters.teamId),
);
