import { selectSeries } from '#shared/domain/datasets/select-series.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler(
  'PATCH /api/datasets/{id}/series/selection',
  async ({ pathParameters, body }, caller, deps) =>
    selectSeries(pathParameters.id, body.seriesSelections, caller, deps),
);
