import { cancelInvitation } from '#shared/domain/invitations/manage-invitations.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('DELETE /api/invitations/{invitationId}', async ({ pathParameters }, caller, deps) =>
  cancelInvitation(pathParameters.invitationId, caller, deps),
);
