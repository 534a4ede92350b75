import { removeMember } from '#shared/domain/organisation/teams.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler(
  'DELETE /api/teams/{teamId}/members/{memberId}',
  async ({ pathParameters }, caller, deps) =>
    removeMember(pathParameters.teamId, pathParameters.memberId, caller, deps),
);
