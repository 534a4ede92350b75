import { changeMemberRole } from '#shared/domain/organisation/teams.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler(
  'PATCH /api/teams/{teamId}/members/{memberId}/role',
  async ({ pathParameters, body }, caller, deps) =>
    changeMemberRole(pathParameters.teamId, pathParameters.memberId, body.role, caller, deps),
);
