import { getMe } from '#shared/domain/auth/get-me.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/me', async (_request, caller, deps) => getMe(caller, deps));
