import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { dispatch } from '#functions/lib/dispatch.ts';
import { download, requestCode, study, verifyCode } from './patient-access.ts';

const route = dispatch<'patient-access'>({
  'POST /api/patient-access/code': requestCode,
  'POST /api/patient-access/verify': verifyCode,
  'POST /api/patient-access/study': study,
  'POST /api/patient-access/download': download,
});

export async function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return route(event, context);
}
