import { setNotificationPreferences } from '#shared/domain/settings/me-settings.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('PUT /api/me/notification-preferences', async ({ body }, caller, deps) =>
  setNotificationPreferences(body, caller, deps),
);
