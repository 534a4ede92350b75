import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { dispatch } from '#functions/lib/dispatch.ts';
import { handler as changeUserRole } from './change-user-role.ts';
import { handler as disableUser } from './disable-user.ts';
import { handler as enableUser } from './enable-user.ts';
import { handler as getUser } from './get-user.ts';
import { handler as listUsers } from './list-users.ts';
import { handler as moveUser } from './move-user.ts';
import { handler as resetUserMfa } from './reset-user-mfa.ts';

const route = dispatch<'users'>({
  'GET /api/users': listUsers,
  'GET /api/users/{userId}': getUser,
  'PATCH /api/users/{userId}/role': changeUserRole,
  'PATCH /api/users/{userId}/team': moveUser,
  'POST /api/users/{userId}/disable': disableUser,
  'POST /api/users/{userId}/enable': enableUser,
  'POST /api/users/{userId}/reset-mfa': resetUserMfa,
});

export async function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return route(event, context);
}
