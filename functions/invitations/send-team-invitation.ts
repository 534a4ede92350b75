import { inviteToTeam } from '#shared/domain/invitations/send-invitation.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler(
  'POST /api/teams/{teamId}/invitations',
  async ({ body, pathParameters }, caller, deps) => inviteToTeam(pathParameters.teamId, body, caller, deps),
);
