import { listTeams } from '#shared/domain/organisation/teams.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/teams', async ({ query }, caller, deps) => listTeams(query, caller, deps));
