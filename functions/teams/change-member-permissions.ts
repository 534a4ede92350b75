import { changeMemberPermissions } from '#shared/domain/organisation/teams.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler(
  'PATCH /api/teams/{teamId}/members/{memberId}/permissions',
  async ({ pathParameters, body }, caller, deps) =>
    changeMemberPermissions(pathParameters.teamId, pathParameters.memberId, body.permissions, caller, deps),
);
