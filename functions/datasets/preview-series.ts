import { previewSeries } from '#shared/domain/datasets/review-series.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler(
  'GET /api/datasets/{id}/series/{seriesId}/preview',
  async ({ pathParameters, query }, caller, deps) =>
    previewSeries(pathParameters.id, pathParameters.seriesId, query.frame, caller, deps),
);
