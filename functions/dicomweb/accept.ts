import { FRAME_MEDIA_TYPES } from '#shared/dicom/frames.ts';
import { RENDERED_MEDIA_TYPES, type RenderedMediaType } from '#shared/dicom/render.ts';
import { parseMediaType } from '#shared/domain/intake/multipart.ts';

/**
 * The Accept header of WADO-RS frames, bulk data and renderings (PS3.18 8.7.3, 8.3.5): which media type answers.
 * Ranges are taken in the order given; quality values are not weighed.
 */
export const OCTET_STREAM = 'application/octet-stream';

/** The ranges of an Accept header, each a media type and its parameters; none means anything. */
export function acceptRanges(accept: string | undefined) {
  if (!accept?.trim()) return [{ type: '*/*', params: {} as Record<string, string> }];
  return accept.split(',').map((range) => parseMediaType(range));
}

/**
 * The media type of each frame part (PS3.18 8.7.3.5): uncompressed frames as application/octet-stream; compressed ones
 * in the media type of their syntax (Table 8.7.3-2), or as application/octet-stream when the client takes any syntax
 * (transfer-syntax=*). Undefined when no range of the Accept header takes them (406).
 */
export function framePartType(accept: string | undefined, transferSyntaxUID: string, encapsulated: boolean) {
  const imageType = FRAME_MEDIA_TYPES[transferSyntaxUID];
  const native = encapsulated ? imageType : OCTET_STREAM;
  if (!native) return undefined;
  for (const range of acceptRanges(accept)) {
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

/** The rendered media type the Accept header takes first (any image type, or any type at all, takes JPEG), or undefined (406). */
export function renderedType(accept: string | undefined): RenderedMediaType | undefined {
  for (const range of acceptRanges(accept)) {
    const type = range.type === 'multipart/related' ? (range.params.type ?? '').toLowerCase() : range.type;
    if ((RENDERED_MEDIA_TYPES as readonly string[]).includes(type)) return type as RenderedMediaType;
    if (type === 'image/*' || type === '*/*') return 'image/jpeg';
  }
  return undefined;
}
