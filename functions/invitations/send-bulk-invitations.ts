import { inviteMany } from '#shared/domain/invitations/send-invitation.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('POST /api/invitations/bulk', async ({ body }, caller, deps) =>
  inviteMany(body, caller, deps),
);
