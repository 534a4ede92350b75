import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { dispatch } from '#functions/lib/dispatch.ts';
import { handler as listNotifications } from './list-notifications.ts';
import { handler as markRead } from './mark-read.ts';

const route = dispatch<'notifications'>({
  'GET /api/notifications': listNotifications,
  'POST /api/notifications/read': markRead,
});

export async function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return route(event, context);
}
