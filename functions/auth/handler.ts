import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { dispatch } from '#functions/lib/dispatch.ts';
import { handler as getMe } from './get-me.ts';
import { handler as logout } from './logout.ts';

const route = dispatch({
  'GET /api/me': getMe,
  'POST /api/auth/logout': logout,
});

export async function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return route(event, context);
}
