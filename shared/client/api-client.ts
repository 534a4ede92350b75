/**
 * A small JSON client over the route table's paths (shared/definitions/api/routes.ts) with the bearer token and retries of
 * transient failures. Browser-safe (fetch and AbortSignal only): the `iws` command, the upload client and the
 * benchmarks use it; the site's own calls go through web/src/lib/api-client.ts, which throws the same ApiRequestError.
 */
import { ApiRequestError, apiRequestErrorFrom, networkError } from './api-error.ts';

export type ApiConnection = {
  /** '' (same origin), an origin, or an origin ending in /api; route paths (`/api/...`) are appended to it. */
  baseUrl: string;
  /** The Cognito ID token for `Authorization: Bearer`; called before each request, so it may refresh. */
  getToken(): Promise<string>;
  fetch?: typeof fetch;
};

export type RetryOptions = {
  /** Tries per request before giving up (default 5). */
  maxAttempts?: number;
  /** First retry delay; doubles each try, with jitter (default 500 ms). */
  retryDelayMs?: number;
  signal?: AbortSignal;
};

/** The absolute URL of a route path (`/api/...`) under a base that may be '', an origin, or an origin ending in /api. */
export function apiUrl(baseUrl: string, path: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  if (!base) return path;
  return base.endsWith('/api') ? `${base}${path.replace(/^\/api/, '')}` : `${base}${path}`;
}

export function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The upload was aborted.', 'AbortError');
}

/** Waits, or rejects as soon as the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Exponential back-off with jitter, so many clients retrying together do not hit the server in step. */
export function backoffMs(firstDelayMs: number, attempt: number): number {
  return firstDelayMs * 2 ** (attempt - 1) * (0.75 + Math.random() / 2);
}

/** Timeouts, throttling and server errors may pass on a later try; other answers will not. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * A busy or starting server (429 TOO_MANY_REQUESTS, 503 SERVICE_UNAVAILABLE) asks the client to come back: it is given
 * at least this many tries, each wait at least its Retry-After, so a burst of work (a hospital's morning uploads, the
 * service starting) delays a request for some seconds instead of failing it.
 */
export const BUSY_ATTEMPTS = 10;
/** The longest single wait between tries, whatever the back-off or Retry-After says. */
export const MAX_RETRY_WAIT_MS = 8_000;

/** How long to wait before trying again after `response` (attempt counted from 1). */
export function retryWaitMs(
  response: Pick<Response, 'status' | 'headers'>,
  firstDelayMs: number,
  attempt: number,
): number {
  const seconds = Number(response.headers.get('retry-after'));
  const asked = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
  return Math.min(MAX_RETRY_WAIT_MS, Math.max(asked, backoffMs(firstDelayMs, attempt)));
}

/** Tries allowed for an answer of this status. */
export function attemptsFor(status: number, maxAttempts: number): number {
  return status === 429 || status === 503 ? Math.max(maxAttempts, BUSY_ATTEMPTS) : maxAttempts;
}

/**
 * `request(method, path, body?)` answers the parsed JSON body of a 2xx answer. It throws ApiRequestError: with the
 * catalogue's code and message for an error answer, NETWORK (status 0) when the server could not be reached.
 */
export function createApiClient(api: ApiConnection, retry: RetryOptions = {}) {
  const doFetch = api.fetch ?? globalThis.fetch.bind(globalThis);
  const maxAttempts = retry.maxAttempts ?? 5;
  const delay = retry.retryDelayMs ?? 500;
  return async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      if (retry.signal?.aborted) throw abortError(retry.signal);
      let response: Response;
      try {
        response = await doFetch(apiUrl(api.baseUrl, path), {
          method,
          headers: {
            authorization: `Bearer ${await api.getToken()}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: retry.signal,
        });
      } catch (error) {
        if (retry.signal?.aborted) throw abortError(retry.signal);
        if (error instanceof ApiRequestError) throw error;
        if (attempt >= maxAttempts) throw networkError();
        await sleep(backoffMs(delay, attempt), retry.signal);
        continue;
      }
      const text = await response.text();
      if (response.ok) return (text ? JSON.parse(text) : undefined) as T;
      if (isRetryableStatus(response.status) && attempt < attemptsFor(response.status, maxAttempts)) {
        await sleep(retryWaitMs(response, delay, attempt), retry.signal);
        continue;
      }
      throw apiRequestErrorFrom(response.status, text);
    }
  };
}
