import { describe, expect, it } from 'vitest';
import { BUSY_ATTEMPTS, createApiClient, retryWaitMs } from '#shared/client/api-client.ts';

/** A fetch that answers the given statuses in turn (the last one repeated), counting its calls. */
function answering(statuses: number[], headers: Record<string, string> = {}) {
  let calls = 0;
  const fetch = (async () => {
    const status = statuses[Math.min(calls, statuses.length - 1)]!;
    calls += 1;
    const body =
      status === 200
        ? '{"ok":true}'
        : JSON.stringify({
            error: {
              code: 'TOO_MANY_REQUESTS',
              message: 'Too many requests at once. Please wait a moment and try again.',
            },
          });
    return new Response(body, { status, headers });
  }) as typeof globalThis.fetch;
  return { fetch, calls: () => calls };
}

describe('the API client under a busy server', () => {
  it('keeps trying a 429 beyond its usual tries, waiting at least Retry-After', async () => {
    const server = answering([...Array<number>(7).fill(429), 200], { 'retry-after': '0.01' });
    const request = createApiClient(
      { baseUrl: 'http://twin.test', getToken: async () => 'token', fetch: server.fetch },
      { maxAttempts: 3, retryDelayMs: 1 },
    );
    expect(await request('GET', '/api/datasets')).toEqual({ ok: true });
    expect(server.calls()).toBe(8);
  });

  it('gives up on a lasting 429 after BUSY_ATTEMPTS tries with the catalogue error', async () => {
    const server = answering([429]);
    const request = createApiClient(
      { baseUrl: 'http://twin.test', getToken: async () => 'token', fetch: server.fetch },
      { retryDelayMs: 1 },
    );
    await expect(request('GET', '/api/datasets')).rejects.toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS' });
    expect(server.calls()).toBe(BUSY_ATTEMPTS);
  });

  it('does not retry an answer that will not change (400) and keeps 500s to the usual tries', async () => {
    const bad = answering([400]);
    const failing = answering([500]);
    const connection = { baseUrl: '', getToken: async () => 'token' };
    await expect(
      createApiClient({ ...connection, fetch: bad.fetch }, { retryDelayMs: 1 })('GET', '/api/x'),
    ).rejects.toMatchObject({ status: 400 });
    expect(bad.calls()).toBe(1);
    await expect(
      createApiClient({ ...connection, fetch: failing.fetch }, { maxAttempts: 3, retryDelayMs: 1 })('GET', '/api/x'),
    ).rejects.toMatchObject({ status: 500 });
    expect(failing.calls()).toBe(3);
  });

  it('waits what Retry-After asks, never more than the cap', () => {
    const busy = (value?: string) => ({ status: 429, headers: new Headers(value ? { 'retry-after': value } : {}) });
    expect(retryWaitMs(busy('2'), 10, 1)).toBe(2000);
    expect(retryWaitMs(busy('600'), 10, 1)).toBe(8000);
    expect(retryWaitMs(busy(), 100, 1)).toBeGreaterThanOrEqual(75);
    expect(retryWaitMs(busy(), 100, 1)).toBeLessThanOrEqual(125);
  });
});
