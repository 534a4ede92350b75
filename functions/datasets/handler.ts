import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { dispatch } from '#functions/lib/dispatch.ts';
import { handler as classifySeries } from './classify-series.ts';
import { handler as createDataset } from './create-dataset.ts';
import { handler as createExport } from './create-export.ts';
import { handler as deleteDataset } from './delete-dataset.ts';
import { handler as getDataset } from './get-dataset.ts';
import { handler as getExport } from './get-export.ts';
import { handler as getHistory } from './get-history.ts';
import { handler as listAssets } from './list-assets.ts';
import { handler as listDatasets } from './list-datasets.ts';
import { handler as listRecycleBin } from './list-recycle-bin.ts';
import { handler as listSeries } from './list-series.ts';
import { handler as previewSeries } from './preview-series.ts';
import { handler as redactSeries } from './redact-series.ts';
import { handler as releaseSeries } from './release-series.ts';
import { handler as restoreDataset } from './restore-dataset.ts';
import { handler as retryDataset } from './retry-dataset.ts';
import { handler as selectSeries } from './select-series.ts';
import { handler as setLegalHold } from './set-legal-hold.ts';
import { handler as updateDataset } from './update-dataset.ts';

const route = dispatch<'datasets'>({
  'GET /api/datasets': listDatasets,
  'POST /api/datasets': createDataset,
  'GET /api/datasets/recycle-bin': listRecycleBin,
  'GET /api/datasets/{id}': getDataset,
  'PATCH /api/datasets/{id}': updateDataset,
  'DELETE /api/datasets/{id}': deleteDataset,
  'GET /api/datasets/{id}/series': listSeries,
  'PATCH /api/datasets/{id}/series/selection': selectSeries,
  'POST /api/datasets/{id}/series/{seriesId}/classify': classifySeries,
  'POST /api/datasets/{id}/series/{seriesId}/release': releaseSeries,
  'GET /api/datasets/{id}/series/{seriesId}/preview': previewSeries,
  'POST /api/datasets/{id}/series/{seriesId}/redact': redactSeries,
  'GET /api/datasets/{id}/assets': listAssets,
  'GET /api/datasets/{id}/history': getHistory,
  'POST /api/datasets/{id}/retry': retryDataset,
  'POST /api/datasets/{id}/restore': restoreDataset,
  'PUT /api/datasets/{id}/legal-hold': setLegalHold,
  'POST /api/datasets/{id}/exports': createExport,
  'GET /api/datasets/{id}/exports/{exportId}': getExport,
});

export async function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return route(event, context);
}
