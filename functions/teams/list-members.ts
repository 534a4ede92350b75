import { listTeamMembers } from '#shared/domain/organisation/teams.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/teams/{teamId}/members', async ({ pathParameters, query }, caller, deps) =>
  listTeamMembers(pathParameters.teamId, query, caller, deps),
);
