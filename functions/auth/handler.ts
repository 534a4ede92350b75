import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { dispatch } from '#functions/lib/dispatch.ts';
import { handler as getMe } from './get-me.ts';
import { handler as logout } from './logout.ts';
import { handler as ssoRoute } from './sso-route.ts';
import { handler as getProfile } from './get-profile.ts';
import { handler as putProfile } from './put-profile.ts';
import { handler as startAvatarUpload } from './start-avatar-upload.ts';
import { handler as getNotificationPreferences } from './get-notification-preferences.ts';
import { handler as putNotificationPreferences } from './put-notification-preferences.ts';

const route = dispatch<'auth'>({
  'GET /api/me': getMe,
  'POST /api/auth/logout': logout,
  'GET /api/auth/sso-route': ssoRoute,
  'GET /api/me/profile': getProfile,
  'PUT /api/me/profile': putProfile,
  'POST /api/me/avatar': startAvatarUpload,
  'GET /api/me/notification-preferences': getNotificationPreferences,
  'PUT /api/me/notification-preferences': putNotificationPreferences,
});

export async function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return route(event, context);
}
