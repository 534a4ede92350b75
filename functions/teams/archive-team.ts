import { archiveTeam } from '#shared/domain/organisation/teams.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('POST /api/teams/{teamId}/archive', async ({ pathParameters }, caller, deps) =>
  archiveTeam(pathParameters.teamId, caller, deps),
);
