import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { BinaryReply } from '#functions/lib/http-handler.ts';
import { FRAME_MEDIA_TYPES } from '#shared/dicom/frames.ts';
import { RENDERED_MEDIA_TYPES, type RenderedMediaType, type RenderOptions } from '#shared/dicom/render.ts';
import { bulkDataAs, framesAs, renderedAs } from '#shared/domain/intake/dicomweb-read.ts';
import { buildMultipart, parseMediaType } from '#shared/domain/intake/multipart.ts';
import { RuleError } from '#shared/domain/errors.ts';
import { dicomwebRoute, header } from './context.ts';

const OCTET_STREAM = 'application/octet-stream';

/** The ranges of an Accept header, each a media type and its parameters; none means anything. */
function acceptRanges(event: APIGatewayProxyEvent) {
  const accept = header(event, 'accept');
  if (!accept?.trim()) return [{ type: '*/*', params: {} as Record<string, string> }];
  return accept.split(',').map((range) => parseMediaType(range));
}

/**
 * The media type of each frame part (PS3.18 8.7.3.5): uncompressed frames as application/octet-stream; compressed ones
 * in the media type of their syntax (Table 8.7.3-2), or as application/octet-stream when the client takes any syntax
 * (transfer-syntax=*). Undefined when no range of the Accept header takes them (406).
 */
function framePartType(event: APIGatewayProxyEvent, transferSyntaxUID: string, encapsulated: boolean) {
  const imageType = FRAME_MEDIA_TYPES[transferSyntaxUID];
  const native = encapsulated ? imageType : OCTET_STREAM;
  if (!native) return undefined;
  for (const range of acceptRanges(event)) {
    const type = range.type === 'multipart/related' ? (range.params.type ?? OCTET_STREAM).toLowerCase() : range.type;
    const syntax = range.params['transfer-syntax'];
    if (type === '*/*' || type === 'multipart/*') return native;
    if (type === OCTET_STREAM) {
      if (!encapsulated || syntax === '*') return OCTET_STREAM;
      continue;
    }
    if (!encapsulated) continue;
    const wanted = type === 'image/x-jls' ? 'image/jls' : type;
    if (wanted === imageType || wanted === 'image/*') return imageType;
  }
  return undefined;
}

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
    const type = framePartType(event, result.transferSyntaxUID, result.encapsulated);
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
    const ranges = acceptRanges(event);
    const single = ranges.every((r) => r.type === OCTET_STREAM);
    if (single) return new BinaryReply(200, value, OCTET_STREAM);
    const multipart = ranges.some((r) => ['*/*', 'multipart/*', 'multipart/related', OCTET_STREAM].includes(r.type));
    if (!multipart) throw new RuleError('MEDIA_TYPE_NOT_AVAILABLE');
    return multipartReply(OCTET_STREAM, [{ contentType: OCTET_STREAM, bytes: value }]);
  },
);

/** The rendered media type the Accept header takes first (any image type, or any type at all, takes JPEG), or undefined (406). */
function renderedType(event: APIGatewayProxyEvent): RenderedMediaType | undefined {
  for (const range of acceptRanges(event)) {
    const type = range.type === 'multipart/related' ? (range.params.type ?? '').toLowerCase() : range.type;
    if ((RENDERED_MEDIA_TYPES as readonly string[]).includes(type)) return type as RenderedMediaType;
    if (type === 'image/*' || type === '*/*') return 'image/jpeg';
  }
  return undefined;
}

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
    const type = renderedType(event);
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
    const type = renderedType(event);
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
