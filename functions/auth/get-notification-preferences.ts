import { getNotificationPreferences } from '#shared/domain/settings/me-settings.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/me/notification-preferences', async (_request, caller, deps) =>
  getNotificationPreferences(caller, deps),
);
