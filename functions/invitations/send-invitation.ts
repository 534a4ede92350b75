import { inviteOne } from '#shared/domain/invitations/send-invitation.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('POST /api/invitations', async ({ body }, caller, deps) =>
  inviteOne(body, caller, deps),
);
