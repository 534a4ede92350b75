import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { ApiDomain, DomainRouteKey } from '#shared/definitions/api/routes.ts';
import { catalogueMessage } from '#shared/vocabulary/errors.ts';
import type { ApiHandler } from './http-handler.ts';

/** A domain Lambda's handlers: one for each route of that domain in the route table, and no other. */
export type DispatchMap<D extends ApiDomain> = Record<DomainRouteKey<D>, ApiHandler>;

/**
 * One Lambda per domain: dispatch on `${httpMethod} ${resource}` (API Gateway's resource template, which the
 * local router fills the same way) to the verb-noun modules. The domain is given as the type argument,
 * `dispatch<'datasets'>({...})`: the map must then name every route of that domain in shared/definitions/api/routes.ts and
 * nothing else (docs/architecture.md#shared-definitions). Without one, every route of every domain is required.
 */
export function dispatch<D extends ApiDomain>(
  handlers: DispatchMap<D>,
): (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult> {
  const byKey: Partial<Record<string, ApiHandler>> = handlers;
  return async (event, context) => {
    const handler = byKey[`${event.httpMethod} ${event.resource}`];
    if (handler) return handler(event, context);
    return {
      statusCode: 404,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        error: { code: 'ENDPOINT_NOT_IMPLEMENTED', message: catalogueMessage('ENDPOINT_NOT_IMPLEMENTED') },
      }),
    };
  };
}
