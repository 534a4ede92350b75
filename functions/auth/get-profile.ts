import { getMyProfile } from '#shared/domain/settings/me-settings.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/me/profile', async (_request, caller, deps) => getMyProfile(caller, deps));
