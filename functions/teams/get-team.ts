import { getTeam } from '#shared/domain/organisation/teams.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/teams/{teamId}', async ({ pathParameters }, caller, deps) =>
  getTeam(pathParameters.teamId, caller, deps),
);
