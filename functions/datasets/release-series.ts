import { releaseSeries } from '#shared/domain/datasets/release-series.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler(
  'POST /api/datasets/{id}/series/{seriesId}/release',
  async ({ pathParameters }, caller, deps) => releaseSeries(pathParameters.id, pathParameters.seriesId, caller, deps),
);
