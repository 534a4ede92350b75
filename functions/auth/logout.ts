import { logout } from '#shared/domain/auth/logout.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('POST /api/auth/logout', async (_request, caller, deps) => logout(caller, deps));
