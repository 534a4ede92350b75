import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { dispatch } from '#functions/lib/dispatch.ts';
import { handler as getReports } from './get-reports.ts';
import { handler as startRecount } from './start-recount.ts';

const route = dispatch<'reports'>({ 'GET /api/reports': getReports, 'POST /api/reports/recount': startRecount });

export async function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return route(event, context);
}
