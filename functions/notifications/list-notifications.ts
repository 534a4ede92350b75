import { listNotifications } from '#shared/domain/notifications/notifications.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/notifications', async (_request, caller, deps) =>
  listNotifications(caller, deps),
);
