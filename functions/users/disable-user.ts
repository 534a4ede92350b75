import { disableUser } from '#shared/domain/organisation/users.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler(
  'POST /api/users/{userId}/disable',
  async ({ pathParameters, query }, caller, deps) => disableUser(pathParameters.userId, query.hospitalId, caller, deps),
);
