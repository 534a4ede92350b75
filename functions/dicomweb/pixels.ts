import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { BinaryReply } from '#functions/lib/http-handler.ts';
import type { RenderOptions } from '#shared/dicom/render.ts';
import { bulkDataAs, framesAs, renderedAs } from '#shared/domain/intake/dicomweb-read.ts';
import { buildMultipart } from '#shared/domain/intake/multipart.ts';
import { RuleError } from '#shared/domain/errors.ts';
import { acceptRanges, framePartType, OCTET_STREAM, renderedType } from './accept.ts';
import { dicomwebRoute, header } from './context.ts';

function multipartReply(type: string, parts: { contentType: string; bytes: Uint8Array }[]): BinaryReply {
  const boundary = randomUUID();
  return new BinaryReply(
    200,
    buildMultipart(parts, boundary),
    `multipart/related; type="${type}"; boundary=${boundary}`,
  );
}

/** WADO-RS frames (PS3.18 8.3.4.1): multipart/related, one part per frame in the order asked. */
export const retrieveFrames = dicomwebRoute(
  'GET /dicomweb/studies/{study}/series/{series}/instances/{instance}/frames/{frames}',
  async ({ event, pathParameters }, integration, deps) => {
    const { frames: list, ...target } = pathParameters;
    const numbers = list.split(',').map(Number);
    const result = await framesAs({ integration, audit: deps.audit }, target, numbers, deps);
    const type = framePartType(header(event, 'accept'), result.transferSyntaxUID, result.encapsulated);
    if (!type) throw new RuleError('MEDIA_TYPE_NOT_AVAILABLE');
    const partType = result.encapsulated ? `${type}; transfer-syntax=${result.transferSyntaxUID}` : type;
    return multipartReply(
      type,
      result.frames.map((bytes) => ({ contentType: partType, bytes })),
    );
  },
);

/**
 * WADO-RS bulk data (PS3.18 8.3.5.4): the value as one application/octet-stream part of multipart/related, or as the
 * body itself when the client accepts application/octet-stream and no multipart.
 */
export const retrieveBulkData = dicomwebRoute(
  'GET /dicomweb/studies/{study}/series/{series}/instances/{instance}/bulkdata/{tag}',
  async ({ event, pathParameters }, integration, deps) => {
    const { tag, ...target } = pathParameters;
    const value = await bulkDataAs({ integration, audit: deps.audit }, target, tag.toUpperCase(), deps);
    const ranges = acceptRanges(header(event, 'accept'));
    const single = ranges.every((r) => r.type === OCTET_STREAM);
    if (single) return new BinaryReply(200, value, OCTET_STREAM);
    const multipart = ranges.some((r) => ['*/*', 'multipart/*', 'multipart/related', OCTET_STREAM].includes(r.type));
    if (!multipart) throw new RuleError('MEDIA_TYPE_NOT_AVAILABLE');
    return multipartReply(OCTET_STREAM, [{ contentType: OCTET_STREAM, bytes: value }]);
  },
);

/** PS3.18 8.3.5.1: `window=center,width[,function]` (linear only) and `quality` (1 to 100). */
function renderOptions(event: APIGatewayProxyEvent): RenderOptions {
  const query = event.queryStringParameters ?? {};
  const options: RenderOptions = {};
  const [center, width] = (query.window ?? '').split(',').map(Number);
  if (Number.isFinite(center) && Number.isFinite(width) && width! >= 1)
    options.window = { center: center!, width: width! };
  const quality = Number(query.quality);
  if (query.quality !== undefined && Number.isFinite(quality)) options.quality = quality;
  return options;
}

/** WADO-RS rendered instance (PS3.18 8.3.5, 9.5): the image itself, in the media type asked. */
export const retrieveInstanceRendered = dicomwebRoute(
  'GET /dicomweb/studies/{study}/series/{series}/instances/{instance}/rendered',
  async ({ event, pathParameters }, integration, deps) => {
    const type = renderedType(header(event, 'accept'));
    if (!type) throw new RuleError('MEDIA_TYPE_NOT_AVAILABLE');
    const [image] = await renderedAs(
      { integration, audit: deps.audit },
      pathParameters,
      type,
      renderOptions(event),
      deps,
    );
    return new BinaryReply(200, image!, type);
  },
);

/** WADO-RS rendered series: multipart/related, one image per instance (its first frame). */
export const retrieveSeriesRendered = dicomwebRoute(
  'GET /dicomweb/studies/{study}/series/{series}/rendered',
  async ({ event, pathParameters }, integration, deps) => {
    const type = renderedType(header(event, 'accept'));
    if (!type) throw new RuleError('MEDIA_TYPE_NOT_AVAILABLE');
    const images = await renderedAs(
      { integration, audit: deps.audit },
      pathParameters,
      type,
      renderOptions(event),
      deps,
    );
    return multipartReply(
      type,
      images.map((bytes) => ({ contentType: type, bytes })),
    );
  },
);
