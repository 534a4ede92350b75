import { HttpReply, publicHttpHandler } from '#functions/lib/http-handler.ts';

/** GET /api/health: {"status":"ok"} once the table and every bucket answer; 503 naming what failed. */
export const handler = publicHttpHandler('GET /api/health', async (_event, getDeps) => {
  const failing = await (await getDeps()).health.failing();
  return failing.length === 0 ? { status: 'ok' } : new HttpReply(503, { status: 'unavailable', failing });
});
