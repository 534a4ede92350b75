import { listTeamInvitations } from '#shared/domain/invitations/manage-invitations.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler(
  'GET /api/teams/{teamId}/invitations',
  async ({ pathParameters, query }, caller, deps) => listTeamInvitations(pathParameters.teamId, query, caller, deps),
);
