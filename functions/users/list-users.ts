import { listUsers } from '#shared/domain/organisation/users.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/users', async ({ query }, caller, deps) => listUsers(query, caller, deps));
