import { acceptInvitation } from '#shared/domain/invitations/answer-invitation.ts';
import { publicRouteHandler } from '#functions/lib/http-handler.ts';

export const handler = publicRouteHandler('POST /api/invitations/accept', async ({ body }, deps) =>
  acceptInvitation(body, deps),
);
