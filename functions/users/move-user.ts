import { moveUser } from '#shared/domain/organisation/users.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler(
  'PATCH /api/users/{userId}/team',
  async ({ pathParameters, query, body }, caller, deps) =>
    moveUser(pathParameters.userId, query.hospitalId, body.teamId, caller, deps),
);
