import { presignParts } from '#shared/domain/uploads/presign-parts.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler(
  'POST /api/uploads/{sessionId}/files/{fileIndex}/parts',
  async ({ pathParameters, body }, caller, deps) =>
    presignParts(pathParameters.sessionId, pathParameters.fileIndex, body.partNumbers, caller, deps),
);
