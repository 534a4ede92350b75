import { overrideClassification } from '#shared/domain/datasets/override-classification.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler(
  'POST /api/datasets/{id}/series/{seriesId}/classify',
  async ({ pathParameters, body }, caller, deps) =>
    overrideClassification(pathParameters.id, pathParameters.seriesId, body.classifiedType, caller, deps),
);
