import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { dispatch } from '#functions/lib/dispatch.ts';
import { handler as getTeamPolicy } from './get-team-policy.ts';
import { handler as putTeamPolicy } from './put-team-policy.ts';

const route = dispatch({
  'GET /api/teams/{teamId}/policy': getTeamPolicy,
  'PUT /api/teams/{teamId}/policy': putTeamPolicy,
});

export async function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return route(event, context);
}
