import type { JsonFetcher } from '#shared/domain/settings/ports.ts';

/** At most this long per document, and this large: a provider's discovery document and key set are small. */
const TIMEOUT_MS = 5000;
const MAX_BYTES = 256 * 1024;

/**
 * Reads an identity provider's discovery document or key set (docs/sso.md#the-sso-tab): a GET without
 * credentials, redirects refused, a short timeout and a size limit; the error says what went wrong in a few words.
 */
export function createJsonFetcher(fetchImpl: typeof fetch = fetch): JsonFetcher {
  return async (url) => {
    let response: Response;
    try {
      response = await fetchImpl(url, {
        headers: { accept: 'application/json' },
        redirect: 'error',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      const cause = error instanceof Error && error.name === 'TimeoutError' ? 'no answer within 5 s' : 'unreachable';
      throw new Error(cause, { cause: error });
    }
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const text = await response.text();
    if (text.length > MAX_BYTES) throw new Error('the answer is too large');
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new Error('the answer is not JSON');
    }
  };
}
