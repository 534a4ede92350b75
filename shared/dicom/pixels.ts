import { PNG } from 'pngjs';
import { deflateRaw } from 'pako';
import { concatBytes } from './bytes.ts';
import { DEIDENTIFICATION_PROFILE } from './deidentify/profile.ts';
import { encodingOf, readInput, type DicomInput } from './deidentify/index.ts';
import { nodeText, type DicomNode, type Encoding } from './deidentify/tokenize.ts';
import { ByteWriter, writeHeader, writePreambleAndMeta, writeSequence, writeText } from './deidentify/writer.ts';
import { TRANSFER_SYNTAX } from './parse.ts';
import { TAG, tagElement, tagGroup } from './tags.ts';

/**
 * Reading, showing and redacting the pixels of an uncompressed instance (native Pixel Data, PS3.5 8.1.1 and PS3.3
 * C.7.6.3): the review of a series held for burned-in text (docs/domain.md#held-series). Encapsulated (compressed)
 * Pixel Data is never decoded here: it answers PixelDataNotNativeError, so a compressed frame is never corrupted.
 * Node only (pngjs).
 */

/** The transfer syntaxes whose Pixel Data is native (not encapsulated), PS3.5 A.1 to A.5. */
const NATIVE_SYNTAXES: ReadonlySet<string> = new Set(Object.values(TRANSFER_SYNTAX));

/** The instance's Pixel Data is encapsulated (a compressed transfer syntax) or laid out in a way not handled here. */
export class PixelDataNotNativeError extends Error {
  override name = 'PixelDataNotNativeError';
  constructor() {
    super('Pixel Data is not native');
  }
}

const EXTRA_TAG = {
  SamplesPerPixel: '00280002',
  PhotometricInterpretation: '00280004',
  PlanarConfiguration: '00280006',
  NumberOfFrames: '00280008',
  Rows: '00280010',
  Columns: '00280011',
  BitsAllocated: '00280100',
  PixelRepresentation: '00280103',
} as const;

export type PixelLayout = {
  rows: number;
  columns: number;
  frames: number;
  samplesPerPixel: number;
  bitsAllocated: number;
  signed: boolean;
  /** PS3.3 C.7.6.3.1.3: 0 colour-by-pixel (R1G1B1R2...), 1 colour-by-plane (all R, then G, then B). */
  planar: boolean;
  photometric: string;
  littleEndian: boolean;
  instanceNumber?: number;
};

export type Rectangle = { x: number; y: number; width: number; height: number };

function find(elements: DicomNode[], tag: string): DicomNode | undefined {
  return elements.find((node) => node.tag === tag);
}

function unsignedShort(input: DicomInput, encoding: Encoding, tag: string): number | undefined {
  const node = find(input.elements, tag);
  if (!node || node.valueLength < 2) return undefined;
  const view = new DataView(input.source.buffer, input.source.byteOffset, input.source.byteLength);
  return view.getUint16(node.valueStart, encoding.littleEndian);
}

function integerString(input: DicomInput, tag: string): number | undefined {
  const node = find(input.elements, tag);
  if (!node) return undefined;
  const value = Number.parseInt(nodeText(input.source, node), 10);
  return Number.isFinite(value) ? value : undefined;
}

function layoutOf(input: DicomInput): PixelLayout {
  if (!NATIVE_SYNTAXES.has(input.transferSyntaxUID)) throw new PixelDataNotNativeError();
  const encoding = encodingOf(input.transferSyntaxUID);
  const pixelData = find(input.elements, TAG.PixelData);
  if (pixelData?.undefinedLength) throw new PixelDataNotNativeError();
  const rows = unsignedShort(input, encoding, EXTRA_TAG.Rows) ?? 0;
  const columns = unsignedShort(input, encoding, EXTRA_TAG.Columns) ?? 0;
  const bitsAllocated = unsignedShort(input, encoding, EXTRA_TAG.BitsAllocated) ?? 0;
  const samplesPerPixel = unsignedShort(input, encoding, EXTRA_TAG.SamplesPerPixel) ?? 1;
  // Bit-packed (1-bit) and odd sample sizes are not handled: their frames do not start on byte boundaries.
  if (rows === 0 || columns === 0 || ![8, 16, 32].includes(bitsAllocated) || ![1, 3].includes(samplesPerPixel))
    throw new PixelDataNotNativeError();
  const photometricNode = find(input.elements, EXTRA_TAG.PhotometricInterpretation);
  const instanceNumber = integerString(input, TAG.InstanceNumber);
  return {
    rows,
    columns,
    frames: Math.max(1, integerString(input, EXTRA_TAG.NumberOfFrames) ?? 1),
    samplesPerPixel,
    bitsAllocated,
    signed: unsignedShort(input, encoding, EXTRA_TAG.PixelRepresentation) === 1,
    planar: unsignedShort(input, encoding, EXTRA_TAG.PlanarConfiguration) === 1,
    photometric: photometricNode ? nodeText(input.source, photometricNode).toUpperCase() : 'MONOCHROME2',
    littleEndian: encoding.littleEndian,
    ...(instanceNumber !== undefined ? { instanceNumber } : {}),
  };
}

const frameBytes = (layout: PixelLayout): number =>
  layout.rows * layout.columns * layout.samplesPerPixel * (layout.bitsAllocated / 8);

/**
 * The pixel layout of an instance, read from its whole file or from its header alone (the file up to its Pixel Data,
 * as the series header bundle keeps it).
 * @throws PixelDataNotNativeError for a compressed transfer syntax or a layout not handled here.
 */
export function readPixelLayout(bytes: Uint8Array): PixelLayout {
  return layoutOf(readInput(bytes));
}

function pixelValue(view: DataView, offset: number, layout: PixelLayout): number {
  switch (layout.bitsAllocated) {
    case 8:
      return layout.signed ? view.getInt8(offset) : view.getUint8(offset);
    case 16:
      return layout.signed ? view.getInt16(offset, layout.littleEndian) : view.getUint16(offset, layout.littleEndian);
    default:
      return layout.signed ? view.getInt32(offset, layout.littleEndian) : view.getUint32(offset, layout.littleEndian);
  }
}

/**
 * One frame of an instance as a PNG of the image's own size, so a pixel of the PNG is a pixel of the image (the
 * coordinates of a redaction rectangle), unless the image's longer edge is over `maxEdge`: then every n-th pixel of
 * every n-th row is taken, the smallest n that fits (an answer of a function stays under its 6 MB limit). Monochrome
 * frames are windowed from their own minimum to maximum (MONOCHROME1 shown inverted, PS3.3 C.7.6.3.1.2); three-sample
 * frames are shown as RGB.
 * @throws PixelDataNotNativeError for a compressed instance; RangeError for a frame it does not have.
 */
export function renderFramePng(
  bytes: Uint8Array,
  frame: number,
  maxEdge = Number.POSITIVE_INFINITY,
): { png: Uint8Array; layout: PixelLayout } {
  const input = readInput(bytes);
  const layout = layoutOf(input);
  if (!Number.isInteger(frame) || frame < 0 || frame >= layout.frames) throw new RangeError('No such frame');
  const pixelData = find(input.elements, TAG.PixelData);
  const size = frameBytes(layout);
  if (!pixelData || pixelData.valueLength < size * (frame + 1)) throw new PixelDataNotNativeError();
  const start = pixelData.valueStart + size * frame;
  const view = new DataView(input.source.buffer, input.source.byteOffset + start, size);
  const bytesPerSample = layout.bitsAllocated / 8;
  const count = layout.rows * layout.columns;
  const rgba = Buffer.alloc(count * 4);
  if (layout.samplesPerPixel === 1) {
    const values = new Float64Array(count);
    let low = Infinity;
    let high = -Infinity;
    for (let index = 0; index < count; index += 1) {
      const value = pixelValue(view, index * bytesPerSample, layout);
      values[index] = value;
      if (value < low) low = value;
      if (value > high) high = value;
    }
    const range = high > low ? high - low : 1;
    const invert = layout.photometric === 'MONOCHROME1';
    for (let index = 0; index < count; index += 1) {
      let gray = Math.round(((values[index]! - low) / range) * 255);
      if (invert) gray = 255 - gray;
      rgba[index * 4] = gray;
      rgba[index * 4 + 1] = gray;
      rgba[index * 4 + 2] = gray;
      rgba[index * 4 + 3] = 255;
    }
  } else {
    const maximum = 2 ** Math.min(layout.bitsAllocated, 16) - 1;
    for (let index = 0; index < count; index += 1) {
      for (let sample = 0; sample < 3; sample += 1) {
        const at = layout.planar ? (sample * count + index) * bytesPerSample : (index * 3 + sample) * bytesPerSample;
        const value = pixelValue(view, at, layout);
        rgba[index * 4 + sample] = layout.bitsAllocated === 8 ? value : Math.round((value / maximum) * 255);
      }
      rgba[index * 4 + 3] = 255;
    }
  }
  const step = Math.max(1, Math.ceil(Math.max(layout.rows, layout.columns) / maxEdge));
  const width = Math.ceil(layout.columns / step);
  const height = Math.ceil(layout.rows / step);
  let data = rgba;
  if (step > 1) {
    data = Buffer.alloc(width * height * 4);
    for (let y = 0; y < height; y += 1)
      for (let x = 0; x < width; x += 1) {
        const from = (y * step * layout.columns + x * step) * 4;
        rgba.copy(data, (y * width + x) * 4, from, from + 4);
      }
  }
  const colorType = layout.samplesPerPixel === 1 ? 0 : 2;
  const png = new PNG({ width, height, colorType, inputColorType: 6, bitDepth: 8 });
  png.data = data;
  const encoded = PNG.sync.write(png, { colorType, inputColorType: 6 });
  return { png: new Uint8Array(encoded.buffer, encoded.byteOffset, encoded.byteLength), layout };
}

/** A rectangle cut to the image; undefined when nothing of it is inside. */
function clip(rectangle: Rectangle, layout: PixelLayout): Rectangle | undefined {
  const x0 = Math.max(0, rectangle.x);
  const y0 = Math.max(0, rectangle.y);
  const x1 = Math.min(layout.columns, rectangle.x + rectangle.width);
  const y1 = Math.min(layout.rows, rectangle.y + rectangle.height);
  return x1 > x0 && y1 > y0 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : undefined;
}

/** Sets the samples of each rectangle to zero in every frame of `pixels` (the Pixel Data value, frames in order). */
function blank(pixels: Uint8Array, layout: PixelLayout, rectangles: readonly Rectangle[]): void {
  const bytesPerSample = layout.bitsAllocated / 8;
  const size = frameBytes(layout);
  const planeBytes = layout.rows * layout.columns * bytesPerSample;
  const inside = rectangles.map((r) => clip(r, layout)).filter((r): r is Rectangle => r !== undefined);
  for (let frame = 0; frame < layout.frames; frame += 1) {
    const frameStart = frame * size;
    for (const r of inside) {
      for (let row = r.y; row < r.y + r.height; row += 1) {
        if (layout.planar) {
          for (let plane = 0; plane < layout.samplesPerPixel; plane += 1) {
            const from = frameStart + plane * planeBytes + (row * layout.columns + r.x) * bytesPerSample;
            pixels.fill(0, from, from + r.width * bytesPerSample);
          }
        } else {
          const pixelBytes = layout.samplesPerPixel * bytesPerSample;
          const from = frameStart + (row * layout.columns + r.x) * pixelBytes;
          pixels.fill(0, from, from + r.width * pixelBytes);
        }
      }
    }
  }
}

/** PS3.16 CID 7050: the pixels were cleaned of burned-in identifying information. */
export const CLEAN_PIXEL_DATA_CODE = { value: '113101', meaning: 'Clean Pixel Data Option' } as const;
const METHOD_TEXT = 'Clean Pixel Data: regions blanked on review';

const headerOf = (tag: string, vr: string) => ({ group: tagGroup(tag), element: tagElement(tag), vr });

/**
 * Blanks the rectangles (image pixel coordinates, cut to the image) in every frame of an uncompressed instance and
 * records it as PS3.15 asks of a change to the pixels: BurnedInAnnotation (0028,0301) NO, the Clean Pixel Data Option
 * (CID 7050 113101) added to DeidentificationMethodCodeSequence (0012,0064) and a line added to
 * DeidentificationMethod (0012,0063). Every other element is copied byte for byte, the transfer syntax kept (a
 * deflated file is deflated again). The SOP Instance UID is kept: see docs/domain.md#redaction.
 * @throws PixelDataNotNativeError for a compressed instance, before anything is written.
 */
export function redactInstance(bytes: Uint8Array, rectangles: readonly Rectangle[]): Uint8Array {
  const input = readInput(bytes);
  const layout = layoutOf(input);
  const { source, elements, transferSyntaxUID } = input;
  const encoding = encodingOf(transferSyntaxUID);
  const pixelData = find(elements, TAG.PixelData);
  if (!pixelData || pixelData.valueLength < frameBytes(layout) * layout.frames) throw new PixelDataNotNativeError();
  const text = (tag: string) => {
    const node = find(elements, tag);
    return node ? nodeText(source, node) : '';
  };

  const writers = new Map<string, (out: ByteWriter, existing: DicomNode | undefined) => void>([
    [
      TAG.DeidentificationMethod,
      (out, existing) => {
        const before = existing ? nodeText(source, existing) : '';
        const values = before ? [...before.split('\\').filter((v) => v !== METHOD_TEXT), METHOD_TEXT] : [METHOD_TEXT];
        writeText(out, headerOf(TAG.DeidentificationMethod, 'LO'), values.join('\\'), encoding);
      },
    ],
    [
      TAG.DeidentificationMethodCodeSequence,
      (out, existing) => {
        const kept = (existing?.items ?? []).filter(
          (item) =>
            !item.elements.some((e) => e.tag === TAG.CodeValue && nodeText(source, e) === CLEAN_PIXEL_DATA_CODE.value),
        );
        const inner = existing?.itemEncoding ?? encoding;
        writeSequence(
          out,
          { ...headerOf(TAG.DeidentificationMethodCodeSequence, 'SQ'), undefinedLength: false },
          [...kept.map(() => ({ undefinedLength: false })), { undefinedLength: false }],
          encoding,
          inner,
          (index) => {
            const item = kept[index];
            if (item) {
              // The item's own elements, copied as they are (its item tag and delimiter are written anew).
              for (const element of item.elements) out.bytes(source.subarray(element.start, element.end));
              return;
            }
            writeText(out, headerOf(TAG.CodeValue, 'SH'), CLEAN_PIXEL_DATA_CODE.value, inner);
            writeText(out, headerOf(TAG.CodingSchemeDesignator, 'SH'), DEIDENTIFICATION_PROFILE.codingScheme, inner);
            writeText(out, headerOf(TAG.CodeMeaning, 'LO'), CLEAN_PIXEL_DATA_CODE.meaning, inner);
          },
        );
      },
    ],
    [TAG.BurnedInAnnotation, (out) => writeText(out, headerOf(TAG.BurnedInAnnotation, 'CS'), 'NO', encoding)],
    [
      TAG.PixelData,
      (out, existing) => {
        const node = existing!;
        const pixels = source.slice(node.valueStart, node.valueStart + node.valueLength);
        blank(pixels, layout, rectangles);
        writeHeader(out, { group: node.group, element: node.element, vr: node.vr }, pixels.length, encoding);
        out.bytes(pixels);
      },
    ],
  ]);

  const sopClassUID = text(TAG.SOPClassUID) || (input.metaSopClass ?? '');
  const out = new ByteWriter(source.length + 4096);
  writePreambleAndMeta(out, sopClassUID, text(TAG.SOPInstanceUID), transferSyntaxUID);
  const datasetStart = out.length;
  const pending = [...writers.keys()].sort();
  const flushBefore = (tag: string) => {
    while (pending.length > 0 && pending[0]! < tag) writers.get(pending.shift()!)!(out, undefined);
  };
  for (const node of elements) {
    flushBefore(node.tag);
    const writer = writers.get(node.tag);
    if (writer) {
      pending.splice(pending.indexOf(node.tag), 1);
      writer(out, node);
    } else {
      out.bytes(source.subarray(node.start, node.end));
    }
  }
  flushBefore('FFFFFFFF');
  const written = out.result();
  return transferSyntaxUID === TRANSFER_SYNTAX.deflatedExplicitLittle
    ? concatBytes([written.subarray(0, datasetStart), deflateRaw(written.subarray(datasetStart))])
    : written.slice();
}
