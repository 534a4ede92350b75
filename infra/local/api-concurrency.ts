import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_RESERVED_CONCURRENCY } from '#shared/definitions/api/concurrency.ts';
import { matchRoute } from '#shared/definitions/api/routes.ts';
import { gatewayErrorBody, gatewayErrorStatus } from '#shared/definitions/api/gateway-errors.ts';

/** How long a request over the cap waits for a slot before it is refused (docs/local-twin.md#load). */
export const API_QUEUE_WAIT_MS = 2000;

/**
 * The twin's stand-in for each API Lambda's reserved concurrency: at most `limit` requests of one API domain are
 * handled at once. One more waits, in arrival order, up to `queueWaitMs` for a slot and is refused with
 * TOO_MANY_REQUESTS only then: API Gateway throttles far above what one machine can run, so the twin's cap (which
 * protects its memory) answers 429 only to a backlog that lasts, not to a moment's burst (docs/local-twin.md#load).
 */
export function createApiConcurrencyCap(
  siteOrigin: string,
  limit: number = API_RESERVED_CONCURRENCY,
  queueWaitMs: number = API_QUEUE_WAIT_MS,
) {
  const active = new Map<string, number>();
  const waiting = new Map<string, (() => void)[]>();

  /** Resolves true once the request holds a slot of its domain, false when none came within the wait. */
  function acquire(domain: string): Promise<boolean> {
    const running = active.get(domain) ?? 0;
    if (running < limit) {
      active.set(domain, running + 1);
      return Promise.resolve(true);
    }
    if (queueWaitMs <= 0) return Promise.resolve(false);
    const queue = waiting.get(domain) ?? [];
    waiting.set(domain, queue);
    return new Promise((resolve) => {
      const granted = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        const at = queue.indexOf(granted);
        if (at >= 0) queue.splice(at, 1);
        resolve(false);
      }, queueWaitMs);
      queue.push(granted);
    });
  }

  function release(domain: string): void {
    // The slot passes straight to the first request waiting, so the count stays as it is.
    const next = waiting.get(domain)?.shift();
    if (next) next();
    else active.set(domain, (active.get(domain) ?? 1) - 1);
  }

  return async function capped(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    handle: () => Promise<void>,
  ): Promise<void> {
    const domain = req.method === 'OPTIONS' ? undefined : matchRoute(req.method ?? 'GET', url.pathname)?.route.domain;
    if (!domain) return handle();
    if (!(await acquire(domain))) {
      req.resume();
      res.writeHead(gatewayErrorStatus('throttled'), {
        'content-type': 'application/json',
        'retry-after': '1',
        'access-control-allow-origin': siteOrigin,
      });
      res.end(gatewayErrorBody('throttled'));
      return;
    }
    try {
      await handle();
    } finally {
      release(domain);
    }
  };
}
