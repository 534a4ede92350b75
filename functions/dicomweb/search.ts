import { HttpReply } from '#functions/lib/http-handler.ts';
import { searchAs, type QidoLevel } from '#shared/domain/intake/dicomweb-read.ts';
import { baseUrlOf, dicomwebRoute } from './context.ts';

const DICOM_JSON = { 'Content-Type': 'application/dicom+json' };

/** QIDO-RS (PS3.18 10.6): the matches as a DICOM JSON array, over the caller's hospital only. */
function qido<K extends Parameters<typeof dicomwebRoute>[0]>(key: K, level: QidoLevel) {
  return dicomwebRoute(key, async ({ event, query, pathParameters }, integration, deps) => {
    const path = (pathParameters ?? {}) as { study?: string; series?: string };
    const results = await searchAs(
      { integration, audit: deps.audit },
      { level, study: path.study, series: path.series, params: query, baseUrl: baseUrlOf(event, deps) },
      deps,
    );
    // PS3.18 8.3.4.4: a search cut short at the server's maximum says so (docs/dicom-intake.md#the-dicomweb-index).
    const headers = results.partial
      ? { ...DICOM_JSON, Warning: '299 {+SERVICE}: The number of results exceeded the maximum supported by the server' }
      : DICOM_JSON;
    return new HttpReply(200, results, headers);
  });
}

export const searchStudies = qido('GET /dicomweb/studies', 'study');
export const searchSeries = qido('GET /dicomweb/series', 'series');
export const searchInstances = qido('GET /dicomweb/instances', 'instance');
export const searchStudySeries = qido('GET /dicomweb/studies/{study}/series', 'series');
export const searchStudyInstances = qido('GET /dicomweb/studies/{study}/instances', 'instance');
export const searchSeriesInstances = qido('GET /dicomweb/studies/{study}/series/{series}/instances', 'instance');
