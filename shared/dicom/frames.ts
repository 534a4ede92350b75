import dicomParser from 'dicom-parser';
import { parseDicom, TRANSFER_SYNTAX, type ParsedDicom } from './parse.ts';
import { parserKey, TAG } from './tags.ts';

/**
 * The pixel data of a PS3.10 file as WADO-RS serves it (PS3.18 8.7.3.3 and 8.7.3.5): its frames, one by one, and the
 * value of a top-level bulk data attribute. Uncompressed frames are answered as PS3.18 asks of
 * application/octet-stream, little endian and without padding, whatever the stored syntax (explicit or implicit VR,
 * big endian, deflated); encapsulated frames are answered as stored, in the media type of their transfer syntax
 * (PS3.18 Table 8.7.3-2). Nothing is decoded here.
 */

/** The media type of each encapsulated transfer syntax's frames (PS3.18 Table 8.7.3-2); absent: not servable. */
export const FRAME_MEDIA_TYPES: Readonly<Record<string, string>> = {
  '1.2.840.10008.1.2.4.50': 'image/jpeg',
  '1.2.840.10008.1.2.4.51': 'image/jpeg',
  '1.2.840.10008.1.2.4.57': 'image/jpeg',
  '1.2.840.10008.1.2.4.70': 'image/jpeg',
  '1.2.840.10008.1.2.4.80': 'image/jls',
  '1.2.840.10008.1.2.4.81': 'image/jls',
  '1.2.840.10008.1.2.4.90': 'image/jp2',
  '1.2.840.10008.1.2.4.91': 'image/jp2',
  '1.2.840.10008.1.2.4.92': 'image/jpx',
  '1.2.840.10008.1.2.4.93': 'image/jpx',
  '1.2.840.10008.1.2.5': 'image/x-dicom-rle',
};

const UNCOMPRESSED: ReadonlySet<string> = new Set(Object.values(TRANSFER_SYNTAX));

/** The image pixel module's attributes a frame and a rendering need (PS3.3 C.7.6.3). */
export type PixelModule = {
  rows: number;
  columns: number;
  samplesPerPixel: number;
  bitsAllocated: number;
  bitsStored: number;
  pixelRepresentation: number;
  planarConfiguration: number;
  photometricInterpretation: string;
  numberOfFrames: number;
  /** First values of the VOI LUT module's window, when given (PS3.3 C.11.2.1.2). */
  windowCenter?: number;
  windowWidth?: number;
  rescaleSlope: number;
  rescaleIntercept: number;
};

export type PixelSource = {
  transferSyntaxUID: string;
  /** False for the uncompressed syntaxes; true when the frames are encapsulated (PS3.5 A.4). */
  encapsulated: boolean;
  pixel: PixelModule;
  /** The frame `number` (1-based) as served; undefined when there is no such frame. */
  frame(number: number): Uint8Array | undefined;
};

export class PixelDataError extends Error {
  override name = 'PixelDataError';
}

function decimal(parsed: ParsedDicom, tag: string): number | undefined {
  const text = parsed.dataSet.string(parserKey(tag));
  if (text === undefined || text.trim() === '') return undefined;
  const value = Number(text.split('\\')[0]);
  return Number.isFinite(value) ? value : undefined;
}

function pixelModuleOf(parsed: ParsedDicom): PixelModule {
  const us = (tag: string, fallback: number) => parsed.dataSet.uint16(parserKey(tag)) ?? fallback;
  const bitsAllocated = us(TAG.BitsAllocated, 16);
  return {
    rows: us(TAG.Rows, 0),
    columns: us(TAG.Columns, 0),
    samplesPerPixel: us(TAG.SamplesPerPixel, 1),
    bitsAllocated,
    bitsStored: us(TAG.BitsStored, bitsAllocated),
    pixelRepresentation: us(TAG.PixelRepresentation, 0),
    planarConfiguration: us(TAG.PlanarConfiguration, 0),
    photometricInterpretation: (parsed.dataSet.string(parserKey(TAG.PhotometricInterpretation)) ?? 'MONOCHROME2')
      .trim()
      .toUpperCase(),
    numberOfFrames: Math.max(1, Math.floor(decimal(parsed, TAG.NumberOfFrames) ?? 1)),
    windowCenter: decimal(parsed, TAG.WindowCenter),
    windowWidth: decimal(parsed, TAG.WindowWidth),
    rescaleSlope: decimal(parsed, TAG.RescaleSlope) ?? 1,
    rescaleIntercept: decimal(parsed, TAG.RescaleIntercept) ?? 0,
  };
}

/** The bytes of a native frame, little endian (PS3.18 8.7.3.5.2: octet-stream frames carry no byte order of their own). */
function nativeFrame(parsed: ParsedDicom, element: dicomParser.Element, pixel: PixelModule, index: number) {
  const bits = pixel.rows * pixel.columns * pixel.samplesPerPixel * pixel.bitsAllocated;
  if (bits === 0 || pixel.bitsAllocated % 8 !== 0) throw new PixelDataError('Unsupported pixel layout');
  const size = bits / 8;
  const start = element.dataOffset + index * size;
  if ((index + 1) * size > element.length) throw new PixelDataError('Pixel data shorter than its frames');
  const bytes = parsed.bytes.slice(start, start + size);
  if (parsed.transferSyntaxUID === TRANSFER_SYNTAX.explicitBig && pixel.bitsAllocated > 8) {
    const width = pixel.bitsAllocated / 8;
    for (let at = 0; at + width <= bytes.length; at += width) bytes.subarray(at, at + width).reverse();
  }
  return bytes;
}

function encapsulatedFrame(parsed: ParsedDicom, element: dicomParser.Element, pixel: PixelModule, index: number) {
  const fragments = element.fragments ?? [];
  if (pixel.numberOfFrames === 1)
    return dicomParser.readEncapsulatedPixelDataFromFragments(parsed.dataSet, element, 0, fragments.length);
  if ((element.basicOffsetTable ?? []).length > 0)
    return dicomParser.readEncapsulatedImageFrame(parsed.dataSet, element, index);
  if (fragments.length === pixel.numberOfFrames)
    return dicomParser.readEncapsulatedPixelDataFromFragments(parsed.dataSet, element, index, 1);
  if (FRAME_MEDIA_TYPES[parsed.transferSyntaxUID] === 'image/jpeg')
    return dicomParser.readEncapsulatedImageFrame(
      parsed.dataSet,
      element,
      index,
      dicomParser.createJPEGBasicOffsetTable(parsed.dataSet, element),
    );
  throw new PixelDataError('Frames of this pixel data cannot be told apart');
}

/** The pixel data of a PS3.10 file; a PixelDataError when it has none, or none WADO-RS can serve. */
export function pixelSourceOf(file: Uint8Array): PixelSource {
  const parsed = parseDicom(file);
  const element = parsed.dataSet.elements[parserKey(TAG.PixelData)];
  if (!element) throw new PixelDataError('No pixel data');
  const pixel = pixelModuleOf(parsed);
  const encapsulated = !UNCOMPRESSED.has(parsed.transferSyntaxUID);
  if (encapsulated && !element.encapsulatedPixelData) throw new PixelDataError('Pixel data not encapsulated');
  return {
    transferSyntaxUID: parsed.transferSyntaxUID,
    encapsulated,
    pixel,
    frame(number) {
      if (!Number.isInteger(number) || number < 1 || number > pixel.numberOfFrames) return undefined;
      const bytes = encapsulated
        ? encapsulatedFrame(parsed, element, pixel, number - 1)
        : nativeFrame(parsed, element, pixel, number - 1);
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
  };
}

/**
 * The value of a top-level attribute, as a BulkDataURI of the metadata names it (PS3.18 8.7.3.5, F.2.6); undefined
 * when the file has no such attribute. Pixel Data of an encapsulated syntax is its frames joined, in the stored syntax.
 */
export function bulkValueOf(file: Uint8Array, tag: string): Uint8Array | undefined {
  if (tag.toUpperCase() === TAG.PixelData) {
    let source: PixelSource;
    try {
      source = pixelSourceOf(file);
    } catch (error) {
      if (error instanceof PixelDataError) return undefined;
      throw error;
    }
    if (!source.encapsulated && source.pixel.numberOfFrames === 1) return source.frame(1);
    const frames = Array.from({ length: source.pixel.numberOfFrames }, (_, i) => source.frame(i + 1)!);
    const joined = new Uint8Array(frames.reduce((n, f) => n + f.byteLength, 0));
    let at = 0;
    for (const frame of frames) {
      joined.set(frame, at);
      at += frame.byteLength;
    }
    return joined;
  }
  const parsed = parseDicom(file);
  const element = parsed.dataSet.elements[parserKey(tag)];
  if (!element || element.items) return undefined;
  return parsed.bytes.slice(element.dataOffset, element.dataOffset + element.length);
}
