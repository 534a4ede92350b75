import { previewInvitation } from '#shared/domain/invitations/answer-invitation.ts';
import { publicRouteHandler } from '#functions/lib/http-handler.ts';

export const handler = publicRouteHandler('GET /api/invitations/preview', async ({ query }, deps) =>
  previewInvitation(query.token, deps),
);
