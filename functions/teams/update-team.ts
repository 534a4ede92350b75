import { updateTeam } from '#shared/domain/organisation/teams.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('PATCH /api/teams/{teamId}', async ({ pathParameters, body }, caller, deps) =>
  updateTeam(pathParameters.teamId, body, caller, deps),
);
