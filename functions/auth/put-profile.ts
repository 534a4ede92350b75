import { updateMyProfile } from '#shared/domain/settings/me-settings.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('PUT /api/me/profile', async ({ body }, caller, deps) =>
  updateMyProfile(body, caller, deps),
);
