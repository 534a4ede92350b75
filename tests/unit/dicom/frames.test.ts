import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { concatBytes } from '#shared/dicom/bytes.ts';
import { toDicomJson } from '#shared/dicom/dicom-json.ts';
import { bulkValueOf, PixelDataError, pixelSourceOf } from '#shared/dicom/frames.ts';
import { renderFrame } from '#shared/dicom/render.ts';
import { baseElements, buildDicom, encodePart10, rampPixels, type BuiltElement } from '#tests/helpers/dicom-builder.ts';

/**
 * Frames, bulk data and renderings of WADO-RS (PS3.18 8.7.3.5, F.2.6, 8.3.5) from the bytes of a PS3.10 file:
 * uncompressed frames always little endian, compressed ones as stored, and renderings windowed as PS3.3 C.11.2 says.
 */
const JPEG_BASELINE = '1.2.840.10008.1.2.4.50';

/** 16-bit little-endian samples as bytes. */
function samples(values: number[]): Uint8Array {
  const out = new Uint8Array(values.length * 2);
  const view = new DataView(out.buffer);
  values.forEach((value, i) => view.setUint16(i * 2, value, true));
  return out;
}

/** Encapsulated Pixel Data (PS3.5 A.4): an empty Basic Offset Table, one fragment per frame, the delimiter. */
function encapsulated(fragments: Uint8Array[]): Uint8Array {
  const item = (bytes: Uint8Array) => {
    const padded = bytes.length % 2 ? concatBytes([bytes, new Uint8Array(1)]) : bytes;
    const head = new Uint8Array(8);
    const view = new DataView(head.buffer);
    view.setUint16(0, 0xfffe, true);
    view.setUint16(2, 0xe000, true);
    view.setUint32(4, padded.length, true);
    return concatBytes([head, padded]);
  };
  const head = new Uint8Array([0xe0, 0x7f, 0x10, 0x00, 0x4f, 0x42, 0, 0, 0xff, 0xff, 0xff, 0xff]);
  const end = new Uint8Array([0xfe, 0xff, 0xdd, 0xe0, 0, 0, 0, 0]);
  return concatBytes([head, item(new Uint8Array(0)), ...fragments.map(item), end]);
}

function withoutPixels(extra: BuiltElement[] = []): BuiltElement[] {
  const replaced = new Set(extra.map((e) => e.tag));
  return [...baseElements().filter((e) => e.tag !== '7FE00010' && !replaced.has(e.tag)), ...extra];
}

describe('frames of a PS3.10 file', () => {
  it('gives each frame of a multi-frame instance, and none past the last', () => {
    // Arrange: two 8x8 frames, the second the ramp plus 100
    const second = samples(Array.from({ length: 64 }, (_, i) => i + 100));
    const file = buildDicom({
      extra: [
        { tag: '00280008', vr: 'IS', value: '2' },
        { tag: '7FE00010', vr: 'OW', value: concatBytes([rampPixels(), second]) },
      ],
    });

    // Act
    const source = pixelSourceOf(file);

    // Assess
    expect(source.encapsulated).toBe(false);
    expect(source.pixel.numberOfFrames).toBe(2);
    expect(source.frame(1)).toEqual(rampPixels());
    expect(source.frame(2)).toEqual(second);
    expect(source.frame(3)).toBeUndefined();
    expect(source.frame(0)).toBeUndefined();
  });

  it('answers big-endian pixels little endian, as application/octet-stream frames are', () => {
    // Arrange: the builder writes OW bytes as given, so in big endian the samples read swapped
    const file = buildDicom({ transferSyntaxUID: '1.2.840.10008.1.2.2' });
    const swapped = rampPixels();
    for (let i = 0; i < swapped.length; i += 2) [swapped[i], swapped[i + 1]] = [swapped[i + 1]!, swapped[i]!];

    // Act
    const frame = pixelSourceOf(file).frame(1);

    // Assess
    expect(frame).toEqual(swapped);
  });

  it('gives a compressed frame as stored, and renders JPEG baseline by decoding it', () => {
    // Arrange: a real 8x8 JPEG as the one fragment of a JPEG baseline instance
    const rgba = new Uint8Array(8 * 8 * 4).fill(200);
    const jpegFrame = new Uint8Array(jpeg.encode({ width: 8, height: 8, data: rgba }, 90).data);
    const file = concatBytes([
      encodePart10(
        withoutPixels([
          { tag: '00280100', vr: 'US', value: [8] },
          { tag: '00280101', vr: 'US', value: [8] },
          { tag: '00280102', vr: 'US', value: [7] },
        ]),
        JPEG_BASELINE,
      ),
      encapsulated([jpegFrame]),
    ]);

    // Act
    const source = pixelSourceOf(file);
    const png = PNG.sync.read(Buffer.from(renderFrame(source, 1, 'image/png')));

    // Assess
    expect(source.encapsulated).toBe(true);
    expect(source.transferSyntaxUID).toBe(JPEG_BASELINE);
    // A fragment is even in length (PS3.5 A.4): the frame is the JPEG stream, padded to it
    const frame = source.frame(1)!;
    expect(frame.subarray(0, jpegFrame.length)).toEqual(jpegFrame);
    expect(frame.length).toBe(jpegFrame.length + (jpegFrame.length % 2));
    expect(bulkValueOf(file, '7FE00010')).toEqual(frame);
    expect([png.width, png.height]).toEqual([8, 8]);
    expect(Math.abs(png.data[0]! - 200)).toBeLessThan(8);
  });

  it('has no frames without pixel data', () => {
    // Arrange
    const file = encodePart10(withoutPixels(), '1.2.840.10008.1.2.1');

    // Act + Assess
    expect(() => pixelSourceOf(file)).toThrow(PixelDataError);
    expect(bulkValueOf(file, '7FE00010')).toBeUndefined();
  });
});

describe('renderings', () => {
  it('apply the rescale and the stored window, linear as PS3.3 C.11.2.1.2 says, and invert MONOCHROME1', () => {
    // Arrange: values 0..63, rescaled by 2 to 0..126, windowed at center 64 width 64 (32 and below black, 96 and up white)
    const elements: BuiltElement[] = [
      { tag: '00281050', vr: 'DS', value: '64' },
      { tag: '00281051', vr: 'DS', value: '64' },
      { tag: '00281052', vr: 'DS', value: '0' },
      { tag: '00281053', vr: 'DS', value: '2' },
    ];
    const mono2 = pixelSourceOf(buildDicom({ extra: elements }));
    const mono1 = pixelSourceOf(
      buildDicom({ extra: [...elements, { tag: '00280004', vr: 'CS', value: 'MONOCHROME1' }] }),
    );
    const level = (png: PNG, index: number) => png.data[index * 4]!;

    // Act
    const shown = PNG.sync.read(Buffer.from(renderFrame(mono2, 1, 'image/png')));
    const inverted = PNG.sync.read(Buffer.from(renderFrame(mono1, 1, 'image/png')));
    const asked = PNG.sync.read(Buffer.from(renderFrame(mono2, 1, 'image/png', { window: { center: 1, width: 1 } })));

    // Assess: pixel 10 is 20 (black), 32 is 64 (mid grey), 50 is 100 (white); MONOCHROME1 the other way round
    expect([level(shown, 10), level(shown, 50)]).toEqual([0, 255]);
    expect(Math.abs(level(shown, 32) - 128)).toBeLessThan(3);
    expect([level(inverted, 10), level(inverted, 50)]).toEqual([255, 0]);
    // A window asked for wins over the stored one: at center 1 width 1, 0.5 and below is black, the rest white
    expect([level(asked, 0), level(asked, 1)]).toEqual([0, 255]);
  });

  it('write JPEG with its markers at the quality asked', () => {
    // Arrange
    const source = pixelSourceOf(buildDicom());

    // Act
    const high = renderFrame(source, 1, 'image/jpeg', { quality: 100 });
    const low = renderFrame(source, 1, 'image/jpeg', { quality: 5 });

    // Assess
    expect([...high.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    expect([...high.subarray(-2)]).toEqual([0xff, 0xd9]);
    expect(low.byteLength).toBeLessThan(high.byteLength);
    expect(jpeg.decode(high, { useTArray: true }).width).toBe(8);
  });
});

describe('the DICOM JSON of WADO-RS metadata', () => {
  it('names the pixel data and large binary values by BulkDataURI, and gives small ones inline', () => {
    // Arrange: a 2000-byte private OB value and a 4-byte one beside the pixel data
    const file = buildDicom({
      extra: [
        { tag: '00091010', vr: 'OB', value: new Uint8Array(2000).fill(7) },
        { tag: '00091011', vr: 'OB', value: new Uint8Array([1, 2, 3, 4]) },
      ],
    });

    // Act
    const withUris = toDicomJson(file, (tag) => `https://pacs.test/bulk/${tag}`);
    const without = toDicomJson(file);

    // Assess
    expect(withUris['7FE00010']).toEqual({ vr: 'OW', BulkDataURI: 'https://pacs.test/bulk/7FE00010' });
    expect(withUris['00091010']).toEqual({ vr: 'OB', BulkDataURI: 'https://pacs.test/bulk/00091010' });
    expect(withUris['00091011']).toEqual({ vr: 'OB', InlineBinary: 'AQIDBA==' });
    expect(without['7FE00010']).toEqual({ vr: 'OW' });
    expect(bulkValueOf(file, '00091010')).toEqual(new Uint8Array(2000).fill(7));
  });
});
