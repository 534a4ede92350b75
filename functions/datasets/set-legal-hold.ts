import { setLegalHold } from '#shared/domain/datasets/legal-hold.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler(
  'PUT /api/datasets/{id}/legal-hold',
  async ({ pathParameters, body }, caller, deps) => setLegalHold(pathParameters.id, body, caller, deps),
);
