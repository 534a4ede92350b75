import { getTeamPolicy } from '#shared/domain/settings/policies.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/teams/{teamId}/policy', async ({ pathParameters }, caller, deps) =>
  getTeamPolicy(caller, pathParameters.teamId, { ...deps, teams: deps.directory }),
);
