import { HttpReply } from '#functions/lib/http-handler.ts';
import { storeInstances } from '#shared/domain/intake/stow.ts';
import { baseUrlOf, dicomwebRoute, header, intakeDeps, stowSource } from './context.ts';

const DICOM_JSON = { 'Content-Type': 'application/dicom+json' };

/** STOW-RS (PS3.18 10.5): the response dataset with the status storeInstances decided. */
export const storeStudies = dicomwebRoute('POST /dicomweb/studies', async ({ body, event }, integration, deps) => {
  const result = await storeInstances(body, header(event, 'content-type'), stowSource(integration), intakeDeps(deps), {
    baseUrl: baseUrlOf(event, deps),
  });
  return new HttpReply(result.status, result.body, DICOM_JSON);
});

export const storeStudy = dicomwebRoute(
  'POST /dicomweb/studies/{study}',
  async ({ body, event, pathParameters }, integration, deps) => {
    const result = await storeInstances(
      body,
      header(event, 'content-type'),
      stowSource(integration),
      intakeDeps(deps),
      {
        study: pathParameters.study,
        baseUrl: baseUrlOf(event, deps),
      },
    );
    return new HttpReply(result.status, result.body, DICOM_JSON);
  },
);
