import { getUsage } from '#shared/domain/usage/usage.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/usage', async ({ query }, caller, deps) => getUsage(query, caller, deps));
