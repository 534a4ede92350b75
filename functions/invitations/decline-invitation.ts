import { declineInvitation } from '#shared/domain/invitations/answer-invitation.ts';
import { publicRouteHandler } from '#functions/lib/http-handler.ts';

export const handler = publicRouteHandler('POST /api/invitations/decline', async ({ body }, deps) =>
  declineInvitation(body.token, deps),
);
