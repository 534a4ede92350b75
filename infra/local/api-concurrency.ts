import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_RESERVED_CONCURRENCY } from '#shared/api/concurrency.ts';
import { matchRoute } from '#shared/api/routes.ts';
import { gatewayErrorBody, gatewayErrorStatus } from '#shared/api/gateway-errors.ts';

/**
 * The twin's stand-in for each API Lambda's reserved concurrency: at most `limit` requests of one API domain are
 * handled at once; one more is refused with TOO_MANY_REQUESTS instead of queueing, as a throttled Lambda is.
 */
export function createApiConcurrencyCap(siteOrigin: string, limit: number = API_RESERVED_CONCURRENCY) {
  const active = new Map<string, number>();
  return async function capped(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    handle: () => Promise<void>,
  ): Promise<void> {
    const domain = req.method === 'OPTIONS' ? undefined : matchRoute(req.method ?? 'GET', url.pathname)?.route.domain;
    if (!domain) return handle();
    const running = active.get(domain) ?? 0;
    if (running >= limit) {
      req.resume();
      res.writeHead(gatewayErrorStatus('throttled'), {
        'content-type': 'application/json',
        'retry-after': '1',
        'access-control-allow-origin': siteOrigin,
      });
      res.end(gatewayErrorBody('throttled'));
      return;
    }
    active.set(domain, running + 1);
    try {
      await handle();
    } finally {
      active.set(domain, (active.get(domain) ?? 1) - 1);
    }
  };
}
