import { resetUserMfa } from '#shared/domain/organisation/users.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler(
  'POST /api/users/{userId}/reset-mfa',
  async ({ pathParameters, query }, caller, deps) =>
    resetUserMfa(pathParameters.userId, query.hospitalId, caller, deps),
);
