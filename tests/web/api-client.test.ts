import { describe, expect, it } from 'vitest';
import { createApiClient, apiUrl } from '#shared/client/api-client.ts';
import { ApiRequestError, apiRequestErrorFrom } from '#shared/client/api-error.ts';
import { ERROR_CATALOGUE } from '#shared/vocabulary/errors.ts';

/** A fetch that answers the queued responses in order and records the requests. */
function queuedFetch(answers: (() => Response)[]) {
  const calls: { url: string; init?: RequestInit }[] = [];
  const fetch = (async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    return next();
  }) as unknown as typeof globalThis.fetch;
  return { fetch, calls };
}

const json = (status: number, body: unknown) => () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('the one ApiRequestError of the site and the CLI', () => {
  it('carries the catalogue code and message of an error body', () => {
    const error = apiRequestErrorFrom(
      404,
      JSON.stringify({ error: { code: 'DATASET_NOT_FOUND', message: 'Dataset not found' } }),
    );
    expect([error instanceof ApiRequestError, error.status, error.code, error.message]).toEqual([
      true,
      404,
      'DATASET_NOT_FOUND',
      'Dataset not found',
    ]);
  });

  it('never shows raw server text: a non-API body becomes INTERNAL with the catalogue wording', () => {
    const error = apiRequestErrorFrom(502, '<html>Bad gateway at 10.0.0.7</html>');
    expect([error.status, error.code, error.message]).toEqual([502, 'INTERNAL', ERROR_CATALOGUE.INTERNAL.message]);
  });
});

describe('createApiClient', () => {
  it('sends the bearer token to the route under the base URL and retries a 503', async () => {
    const { fetch, calls } = queuedFetch([json(503, {}), json(200, { id: 'd1' })]);
    const request = createApiClient(
      { baseUrl: 'https://api.example.org/api/', getToken: async () => 'tok', fetch },
      { retryDelayMs: 1 },
    );
    const answer = await request<{ id: string }>('GET', '/api/datasets/d1');
    expect(answer).toEqual({ id: 'd1' });
    expect(calls.map((c) => c.url)).toEqual([
      'https://api.example.org/api/datasets/d1',
      'https://api.example.org/api/datasets/d1',
    ]);
    expect((calls[0]!.init!.headers as Record<string, string>).authorization).toBe('Bearer tok');
  });

  it('throws ApiRequestError with the catalogue code for a 4xx, without retrying', async () => {
    const { fetch, calls } = queuedFetch([
      json(409, { error: { code: 'INVALID_STATE', message: ERROR_CATALOGUE.INVALID_STATE.message } }),
    ]);
    const request = createApiClient({ baseUrl: '', getToken: async () => 't', fetch }, { retryDelayMs: 1 });
    const failure = await request('POST', '/api/datasets/d1/retry').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiRequestError);
    expect([(failure as ApiRequestError).code, calls.length]).toEqual(['INVALID_STATE', 1]);
  });

  it('throws a NETWORK ApiRequestError (status 0) when the server cannot be reached after every try', async () => {
    const fetch = (async () => {
      throw new TypeError('fetch failed');
    }) as unknown as typeof globalThis.fetch;
    const request = createApiClient(
      { baseUrl: '', getToken: async () => 't', fetch },
      { maxAttempts: 2, retryDelayMs: 1 },
    );
    const failure = (await request('GET', '/api/me').catch((e: unknown) => e)) as ApiRequestError;
    expect([failure.name, failure.status, failure.code]).toEqual(['ApiRequestError', 0, 'NETWORK']);
  });

  it('keeps route paths under a base that already ends in /api', () => {
    expect([apiUrl('', '/api/me'), apiUrl('https://x.org', '/api/me'), apiUrl('https://x.org/api', '/api/me')]).toEqual(
      ['/api/me', 'https://x.org/api/me', 'https://x.org/api/me'],
    );
  });
});
