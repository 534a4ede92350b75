import { redactSeries } from '#shared/domain/datasets/review-series.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler(
  'POST /api/datasets/{id}/series/{seriesId}/redact',
  async ({ pathParameters, body }, caller, deps) =>
    redactSeries(pathParameters.id, pathParameters.seriesId, body, caller, deps),
);
