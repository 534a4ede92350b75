import { createTeam } from '#shared/domain/organisation/teams.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('POST /api/teams', async ({ body }, caller, deps) => createTeam(body, caller, deps));
