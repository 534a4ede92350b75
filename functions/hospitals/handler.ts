import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { dispatch } from '#functions/lib/dispatch.ts';
import { handler as getDeidentificationPolicy } from './get-deidentification-policy.ts';
import { handler as putDeidentificationPolicy } from './put-deidentification-policy.ts';

const route = dispatch({
  'GET /api/hospital-admin/deidentification-policy': getDeidentificationPolicy,
  'PUT /api/hospital-admin/deidentification-policy': putDeidentificationPolicy,
});

export async function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return route(event, context);
}
