import { getUser } from '#shared/domain/organisation/users.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/users/{userId}', async ({ pathParameters, query }, caller, deps) =>
  getUser(pathParameters.userId, query.hospitalId, caller, deps),
);
