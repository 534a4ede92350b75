import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { PixelDataError, type PixelSource } from './frames.ts';

/**
 * Rendered frames (PS3.18 8.3.5 and 9.5): one frame of an instance as an 8-bit image a browser shows, PNG or JPEG.
 * Grayscale frames go through the modality LUT (Rescale Slope and Intercept) and a linear VOI window (PS3.3
 * C.11.2.1.2): the request's `window`, else the instance's Window Center and Width, else the frame's own minimum and
 * maximum; MONOCHROME1 is inverted so that white is always the highest value shown. RGB frames (8 bits, either planar
 * configuration) are shown as they are. Uncompressed frames, and JPEG baseline frames (decoded by jpeg-js), are
 * rendered; another compressed syntax cannot be, and is a PixelDataError.
 */
export const RENDERED_MEDIA_TYPES = ['image/jpeg', 'image/png'] as const;
export type RenderedMediaType = (typeof RENDERED_MEDIA_TYPES)[number];

export type RenderOptions = {
  /** PS3.18 8.3.5.1.4: the window to apply, center and width in the modality LUT's output units. */
  window?: { center: number; width: number };
  /** PS3.18 8.3.5.1.5: the JPEG quality, 1 to 100 (90 unless given). */
  quality?: number;
};

const JPEG_BASELINE = '1.2.840.10008.1.2.4.50';

type Rgba = { width: number; height: number; data: Uint8Array };

function sampleReader(frame: Uint8Array, bitsAllocated: number, bitsStored: number, signed: boolean) {
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const mask = bitsStored >= 32 ? 0xffffffff : 2 ** bitsStored - 1;
  const signBit = 2 ** (bitsStored - 1);
  return (index: number): number => {
    let raw: number;
    if (bitsAllocated === 8) raw = frame[index]!;
    else if (bitsAllocated === 16) raw = view.getUint16(index * 2, true);
    else if (bitsAllocated === 32) raw = view.getUint32(index * 4, true);
    else throw new PixelDataError('Unsupported bits allocated');
    raw &= mask;
    return signed && raw >= signBit ? raw - 2 * signBit : raw;
  };
}

function grayscale(source: PixelSource, frame: Uint8Array, options: RenderOptions): Rgba {
  const { rows, columns, bitsAllocated, bitsStored, pixelRepresentation, rescaleSlope, rescaleIntercept } =
    source.pixel;
  const count = rows * columns;
  const read = sampleReader(frame, bitsAllocated, bitsStored, pixelRepresentation === 1);
  const values = new Float64Array(count);
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < count; i++) {
    const value = read(i) * rescaleSlope + rescaleIntercept;
    values[i] = value;
    if (value < min) min = value;
    if (value > max) max = value;
  }
  const stored =
    source.pixel.windowCenter !== undefined && source.pixel.windowWidth !== undefined && source.pixel.windowWidth >= 1
      ? { center: source.pixel.windowCenter, width: source.pixel.windowWidth }
      : undefined;
  const window = options.window ?? stored;
  // PS3.3 C.11.2.1.2.1, linear: below c - 0.5 - (w - 1) / 2 black, above c - 0.5 + (w - 1) / 2 white.
  const [low, high] = window
    ? [window.center - 0.5 - (window.width - 1) / 2, window.center - 0.5 + (window.width - 1) / 2]
    : [min, max];
  const range = high - low;
  const invert = source.pixel.photometricInterpretation === 'MONOCHROME1';
  const data = new Uint8Array(count * 4);
  for (let i = 0; i < count; i++) {
    const value = values[i]!;
    let level = range > 0 ? Math.round(Math.min(1, Math.max(0, (value - low) / range)) * 255) : value > low ? 255 : 0;
    if (invert) level = 255 - level;
    data[i * 4] = level;
    data[i * 4 + 1] = level;
    data[i * 4 + 2] = level;
    data[i * 4 + 3] = 255;
  }
  return { width: columns, height: rows, data };
}

function rgb(source: PixelSource, frame: Uint8Array): Rgba {
  const { rows, columns, bitsAllocated, planarConfiguration } = source.pixel;
  if (bitsAllocated !== 8) throw new PixelDataError('Unsupported color depth');
  const count = rows * columns;
  const data = new Uint8Array(count * 4);
  for (let i = 0; i < count; i++) {
    for (let c = 0; c < 3; c++) data[i * 4 + c] = frame[planarConfiguration === 1 ? c * count + i : i * 3 + c]!;
    data[i * 4 + 3] = 255;
  }
  return { width: columns, height: rows, data };
}

function decoded(source: PixelSource, frame: Uint8Array, options: RenderOptions): Rgba {
  if (source.encapsulated) {
    if (source.transferSyntaxUID !== JPEG_BASELINE) throw new PixelDataError('Cannot render this transfer syntax');
    return jpeg.decode(frame, { useTArray: true, formatAsRGBA: true });
  }
  const photometric = source.pixel.photometricInterpretation;
  if (source.pixel.samplesPerPixel === 1 && photometric.startsWith('MONOCHROME'))
    return grayscale(source, frame, options);
  if (source.pixel.samplesPerPixel === 3 && photometric === 'RGB') return rgb(source, frame);
  throw new PixelDataError('Cannot render this photometric interpretation');
}

/** Frame `number` (1-based) of `source`, rendered as `mediaType`; a PixelDataError when it cannot be. */
export function renderFrame(
  source: PixelSource,
  number: number,
  mediaType: RenderedMediaType,
  options: RenderOptions = {},
): Uint8Array {
  const frame = source.frame(number);
  if (!frame) throw new PixelDataError('No such frame');
  const image = decoded(source, frame, options);
  if (mediaType === 'image/jpeg') {
    const quality = Math.min(100, Math.max(1, Math.round(options.quality ?? 90)));
    const encoded = jpeg.encode({ width: image.width, height: image.height, data: image.data }, quality);
    return new Uint8Array(encoded.data.buffer, encoded.data.byteOffset, encoded.data.byteLength);
  }
  const png = new PNG({ width: image.width, height: image.height });
  png.data = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  const encoded = PNG.sync.write(png, { colorType: 2 });
  return new Uint8Array(encoded.buffer, encoded.byteOffset, encoded.byteLength);
}
