import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { dispatch } from '#functions/lib/dispatch.ts';
import { handler as getJob } from './get-job.ts';
import { handler as listJobResults } from './list-job-results.ts';

const route = dispatch<'jobs'>({
  'GET /api/jobs/{jobId}': getJob,
  'GET /api/jobs/{jobId}/results': listJobResults,
});

export async function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return route(event, context);
}
