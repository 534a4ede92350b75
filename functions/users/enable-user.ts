import { enableUser } from '#shared/domain/organisation/users.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('POST /api/users/{userId}/enable', async ({ pathParameters, query }, caller, deps) =>
  enableUser(pathParameters.userId, query.hospitalId, caller, deps),
);
