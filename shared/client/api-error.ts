import { ApiErrorSchema } from '#shared/schemas/api/common.ts';
import { ERROR_CATALOGUE } from '#shared/vocabulary/errors.ts';

/**
 * A failed API call, for the site and the `iws` command alike: the HTTP status (0 when the server could not be
 * reached), the catalogue code and the product's message, shown to people as it is.
 */
export class ApiRequestError extends Error {
  override name = 'ApiRequestError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The catalogue's network message: the request never got an answer. */
const NETWORK_ERROR_MESSAGE = 'Please check your connection and try again.';

export function networkError(): ApiRequestError {
  return new ApiRequestError(0, 'NETWORK', NETWORK_ERROR_MESSAGE);
}

/**
 * The error of a non-2xx answer from its body text: the catalogue code and message when the body is the API's
 * error shape, otherwise INTERNAL (a proxy's HTML page, an empty body), so nobody sees raw server text.
 */
export function apiRequestErrorFrom(status: number, bodyText: string): ApiRequestError {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    body = undefined;
  }
  const parsed = ApiErrorSchema.safeParse(body);
  if (parsed.success) return new ApiRequestError(status, parsed.data.error.code, parsed.data.error.message);
  return new ApiRequestError(status, 'INTERNAL', ERROR_CATALOGUE.INTERNAL.message);
}
