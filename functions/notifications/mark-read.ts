import { markNotificationsRead } from '#shared/domain/notifications/notifications.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('POST /api/notifications/read', async ({ body }, caller, deps) =>
  markNotificationsRead(body, caller, deps),
);
