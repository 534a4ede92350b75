import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { dispatch } from '#functions/lib/dispatch.ts';
import { handler as checkHealth } from './check-health.ts';
import { handler as getOpenApi } from './get-openapi.ts';

const route = dispatch<'health'>({
  'GET /api/health': checkHealth,
  'GET /api/openapi.json': getOpenApi,
});

export async function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return route(event, context);
}
