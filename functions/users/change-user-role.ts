import { changeUserRole } from '#shared/domain/organisation/users.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler(
  'PATCH /api/users/{userId}/role',
  async ({ pathParameters, query, body }, caller, deps) =>
    changeUserRole(pathParameters.userId, query.hospitalId, body.role, caller, deps),
);
