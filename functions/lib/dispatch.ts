import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { catalogueMessage } from '#shared/vocabulary/errors.ts';
import type { ApiHandler } from './http-handler.ts';

/**
 * One Lambda per domain: dispatch on `${httpMethod} ${resource}` (API Gateway's resource template, which the
 * local router fills the same way) to the verb-noun modules.
 */
export function dispatch(
  handlers: Record<string, ApiHandler>,
): (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult> {
  return async (event, context) => {
    const handler = handlers[`${event.httpMethod} ${event.resource}`];
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
