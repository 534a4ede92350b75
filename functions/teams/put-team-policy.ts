import { setTeamPolicy } from '#shared/domain/settings/policies.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('PUT /api/teams/{teamId}/policy', async ({ pathParameters, body }, caller, deps) =>
  setTeamPolicy(caller, pathParameters.teamId, body.overrides, { ...deps, teams: deps.directory }),
);
