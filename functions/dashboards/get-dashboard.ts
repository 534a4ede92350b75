import { getDashboard } from '#shared/domain/dashboards/dashboard.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/dashboard', async (_input, caller, deps) => getDashboard(caller, deps));
