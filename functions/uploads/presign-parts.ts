import { presignParts } from '#shared/domain/uploads/presign-parts.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler(
  'POST /api/uploads/{sessionId}/parts',
  async ({ pathParameters, body }, caller, deps) =>
    presignParts(pathParameters.sessionId, body.partNumbers, caller, deps),
);
