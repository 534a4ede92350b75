import { catalogueMessage, ERROR_CATALOGUE, type ErrorCode } from '#shared/vocabulary/errors.ts';

/**
 * Errors the API's front door answers itself, before any handler runs: API Gateway's gateway responses
 * (infra/stacks/api-stack.ts) and any other front door of the same route table read this one table, so a client sees
 * the same catalogue entry from each.
 */
export const GATEWAY_ERRORS = {
  /** No route matches the method and path (API Gateway: MISSING_AUTHENTICATION_TOKEN). */
  unknownRoute: 'ENDPOINT_NOT_IMPLEMENTED',
  /**
   * The path is the route table's, the method is not: 405 with an Allow header naming the path's methods
   * (allowedMethods). API Gateway answers such a request as unknownRoute, a known gap (docs/api-contract.md).
   */
  methodNotAllowed: 'METHOD_NOT_ALLOWED',
  /** A body over API Gateway's payload limit (REQUEST_TOO_LARGE). */
  bodyTooLarge: 'PAYLOAD_TOO_LARGE',
  /**
   * A request line and headers over the front door's limit (API Gateway: 10,240 bytes together; docs/api-contract.md
   * for the local front door's). API Gateway has no response type of its own for it: it is answered by DEFAULT_4XX.
   */
  headersTooLarge: 'REQUEST_HEADERS_TOO_LARGE',
  /**
   * Any other refusal at the door (API Gateway's DEFAULT_4XX: an oversized request line or headers, a bad request
   * parameter, an unsupported media type), with the gateway's own status and the catalogue's body.
   */
  rejected: 'REQUEST_REJECTED',
  /** The Cognito authorizer refused the token, or there was none (UNAUTHORIZED). */
  unauthorized: 'NO_TOKEN',
  /** ACCESS_DENIED. */
  accessDenied: 'ACCESS_DENIED',
  /** Over the stage's or the rate rule's request rate, or past a domain's concurrency (THROTTLED). */
  throttled: 'TOO_MANY_REQUESTS',
  /** The integration failed or timed out (DEFAULT_5XX). */
  integrationFailure: 'INTERNAL',
  /** The front door is starting or stopping (answered with Retry-After). */
  unavailable: 'SERVICE_UNAVAILABLE',
} as const satisfies Record<string, ErrorCode>;

export type GatewayError = keyof typeof GATEWAY_ERRORS;

/** API Gateway's payload limit for REST APIs. */
export const MAX_REQUEST_BODY_BYTES = 10 * 1024 * 1024;

/** Seconds a client should wait before retrying a SERVICE_UNAVAILABLE answer. */
export const RETRY_AFTER_SECONDS = 1;

export function gatewayErrorStatus(error: GatewayError): number {
  return ERROR_CATALOGUE[GATEWAY_ERRORS[error]].status;
}

/** The catalogue-shaped body, `{"error":{"code","message"}}`, exactly as both sides send it. */
export function gatewayErrorBody(error: GatewayError): string {
  const code = GATEWAY_ERRORS[error];
  return JSON.stringify({ error: { code, message: catalogueMessage(code) } });
}
