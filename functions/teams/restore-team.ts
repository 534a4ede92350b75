import { restoreTeam } from '#shared/domain/organisation/teams.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('POST /api/teams/{teamId}/restore', async ({ pathParameters }, caller, deps) =>
  restoreTeam(pathParameters.teamId, caller, deps),
);
