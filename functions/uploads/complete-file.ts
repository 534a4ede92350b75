import { completeFile } from '#shared/domain/uploads/complete-file.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler(
  'POST /api/uploads/{sessionId}/files/{fileIndex}/complete',
  async ({ pathParameters, body }, caller, deps) =>
    completeFile(pathParameters.sessionId, pathParameters.fileIndex, body.parts, caller, deps),
);
