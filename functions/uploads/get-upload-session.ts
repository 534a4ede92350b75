import { getUploadSession } from '#shared/domain/uploads/get-upload-session.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/uploads/{sessionId}', async ({ pathParameters }, caller, deps) =>
  getUploadSession(pathParameters.sessionId, caller, deps),
);
