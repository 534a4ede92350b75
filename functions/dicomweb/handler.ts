import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { dispatch } from '#functions/lib/dispatch.ts';
import { handler as commitStudy } from './commit-study.ts';
import { retrieveBulkData, retrieveFrames, retrieveInstanceRendered, retrieveSeriesRendered } from './pixels.ts';
import {
  instanceMetadata,
  retrieveInstance,
  retrieveSeries,
  retrieveStudy,
  seriesMetadata,
  studyMetadata,
} from './retrieve.ts';
import {
  searchInstances,
  searchSeries,
  searchSeriesInstances,
  searchStudies,
  searchStudyInstances,
  searchStudySeries,
} from './search.ts';
import { storeStudies, storeStudy } from './store-instances.ts';

/** DICOMweb (docs/dicom-intake.md): STOW-RS, QIDO-RS and WADO-RS for the integrations' app clients. */
const route = dispatch<'dicomweb'>({
  'POST /dicomweb/studies': storeStudies,
  'POST /dicomweb/studies/{study}': storeStudy,
  'POST /dicomweb/studies/{study}/commit': commitStudy,
  'GET /dicomweb/studies': searchStudies,
  'GET /dicomweb/series': searchSeries,
  'GET /dicomweb/instances': searchInstances,
  'GET /dicomweb/studies/{study}/series': searchStudySeries,
  'GET /dicomweb/studies/{study}/instances': searchStudyInstances,
  'GET /dicomweb/studies/{study}/series/{series}/instances': searchSeriesInstances,
  'GET /dicomweb/studies/{study}': retrieveStudy,
  'GET /dicomweb/studies/{study}/metadata': studyMetadata,
  'GET /dicomweb/studies/{study}/series/{series}': retrieveSeries,
  'GET /dicomweb/studies/{study}/series/{series}/metadata': seriesMetadata,
  'GET /dicomweb/studies/{study}/series/{series}/instances/{instance}': retrieveInstance,
  'GET /dicomweb/studies/{study}/series/{series}/instances/{instance}/metadata': instanceMetadata,
  'GET /dicomweb/studies/{study}/series/{series}/instances/{instance}/frames/{frames}': retrieveFrames,
  'GET /dicomweb/studies/{study}/series/{series}/instances/{instance}/bulkdata/{tag}': retrieveBulkData,
  'GET /dicomweb/studies/{study}/series/{series}/instances/{instance}/rendered': retrieveInstanceRendered,
  'GET /dicomweb/studies/{study}/series/{series}/rendered': retrieveSeriesRendered,
});

export async function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return route(event, context);
}
