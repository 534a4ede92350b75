import { completeUpload } from '#shared/domain/uploads/complete-upload.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('POST /api/uploads/{sessionId}/complete', async ({ pathParameters }, caller, deps) =>
  completeUpload(pathParameters.sessionId, caller, deps),
);
