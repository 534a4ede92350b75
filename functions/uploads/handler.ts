import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { dispatch } from '#functions/lib/dispatch.ts';
import { handler as completeUpload } from './complete-upload.ts';
import { handler as getUploadSession } from './get-upload-session.ts';
import { handler as openUploadSession } from './open-upload-session.ts';
import { handler as presignParts } from './presign-parts.ts';

const route = dispatch<'uploads'>({
  'POST /api/datasets/{id}/upload/session': openUploadSession,
  'GET /api/uploads/{sessionId}': getUploadSession,
  'POST /api/uploads/{sessionId}/parts': presignParts,
  'POST /api/uploads/{sessionId}/complete': completeUpload,
});

export async function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return route(event, context);
}
