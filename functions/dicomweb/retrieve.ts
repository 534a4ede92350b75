import { randomUUID } from 'node:crypto';
import { BinaryReply, HttpReply } from '#functions/lib/http-handler.ts';
import { metadataAs, retrieveAs, WADO_INLINE_MAX_BYTES } from '#shared/domain/intake/dicomweb-read.ts';
import { studyKeys } from '#shared/domain/object-keys.ts';
import { buildMultipart, parseMediaType } from '#shared/domain/intake/multipart.ts';
import { RuleError } from '#shared/domain/errors.ts';
import { baseUrlOf, dicomwebRoute, header } from './context.ts';

type Target = { study: string; series?: string; instance?: string };

/** How long the link to a staged retrieval works: long enough to start the download, no longer. */
export const STAGED_RETRIEVAL_SECONDS = 300;

/**
 * PS3.18 8.7.3: instances are answered as multipart/related of application/dicom, in their stored transfer syntax
 * (an Accept of another media type is 406).
 */
function acceptsMultipartDicom(accept: string | undefined): boolean {
  if (!accept) return true;
  return accept.split(',').some((range) => {
    const media = parseMediaType(range);
    if (media.type === '*/*' || media.type === 'multipart/*') return true;
    return media.type === 'multipart/related' && (media.params.type ?? 'application/dicom') === 'application/dicom';
  });
}

function wado<K extends Parameters<typeof dicomwebRoute>[0]>(key: K) {
  return dicomwebRoute(key, async ({ event, pathParameters }, integration, deps) => {
    if (!acceptsMultipartDicom(header(event, 'accept'))) throw new RuleError('NOT_ACCEPTABLE');
    const files = await retrieveAs({ integration, audit: deps.audit }, pathParameters as Target, deps);
    const boundary = randomUUID();
    const body = buildMultipart(
      files.map((bytes) => ({ contentType: 'application/dicom', bytes })),
      boundary,
    );
    const contentType = `multipart/related; type="application/dicom"; boundary=${boundary}`;
    if (body.byteLength <= WADO_INLINE_MAX_BYTES) return new BinaryReply(200, body, contentType);
    // Too large for one Lambda answer: the same body is staged, and the client follows a short-lived link to it
    // (303 See Other: fetch it with GET, RFC 9110 15.4.4), as it would any redirect.
    const key = studyKeys.retrieval(integration.hospitalId, boundary);
    await deps.objects.put('studies', key, body, contentType);
    const url = await deps.objects.presignGet('studies', key, STAGED_RETRIEVAL_SECONDS);
    return new HttpReply(303, undefined, { Location: url, 'Cache-Control': 'no-store' });
  });
}

function metadata<K extends Parameters<typeof dicomwebRoute>[0]>(key: K) {
  return dicomwebRoute(key, async ({ event, pathParameters }, integration, deps) => {
    const results = await metadataAs(
      { integration, audit: deps.audit },
      pathParameters as Target,
      deps,
      baseUrlOf(event, deps),
    );
    return new HttpReply(200, results, { 'Content-Type': 'application/dicom+json' });
  });
}

export const retrieveStudy = wado('GET /dicomweb/studies/{study}');
export const retrieveSeries = wado('GET /dicomweb/studies/{study}/series/{series}');
export const retrieveInstance = wado('GET /dicomweb/studies/{study}/series/{series}/instances/{instance}');
export const studyMetadata = metadata('GET /dicomweb/studies/{study}/metadata');
export const seriesMetadata = metadata('GET /dicomweb/studies/{study}/series/{series}/metadata');
export const instanceMetadata = metadata('GET /dicomweb/studies/{study}/series/{series}/instances/{instance}/metadata');
