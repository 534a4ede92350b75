import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { parseDicom } from '#shared/dicom/parse.ts';
import {
  CLEAN_PIXEL_DATA_CODE,
  PixelDataNotNativeError,
  readPixelLayout,
  redactInstance,
  renderFramePng,
} from '#shared/dicom/pixels.ts';
import { buildDicom, type BuiltElement } from '#tests/helpers/dicom-builder.ts';

/** Three 8x8 16-bit frames, every sample 1000 + its frame number, so a blanked sample (0) stands out. */
function multiFrame(transferSyntaxUID = '1.2.840.10008.1.2.1'): Uint8Array {
  const frames = 3;
  const pixels = new Uint8Array(8 * 8 * 2 * frames);
  const view = new DataView(pixels.buffer);
  for (let frame = 0; frame < frames; frame += 1)
    for (let i = 0; i < 64; i += 1) view.setUint16((frame * 64 + i) * 2, 1000 + frame, true);
  const extra: BuiltElement[] = [
    { tag: '00280008', vr: 'IS', value: String(frames) },
    { tag: '00280301', vr: 'CS', value: 'YES' },
    { tag: '7FE00010', vr: 'OW', value: pixels },
  ];
  return buildDicom({ extra, transferSyntaxUID });
}

function samples(bytes: Uint8Array): { frame: number; x: number; y: number; value: number }[] {
  const parsed = parseDicom(bytes);
  const element = parsed.dataSet.elements.x7fe00010!;
  const view = new DataView(parsed.bytes.buffer, parsed.bytes.byteOffset + element.dataOffset, element.length);
  const out: { frame: number; x: number; y: number; value: number }[] = [];
  for (let i = 0; i < element.length / 2; i += 1)
    out.push({ frame: Math.floor(i / 64), x: i % 8, y: Math.floor((i % 64) / 8), value: view.getUint16(i * 2, true) });
  return out;
}

describe('redactInstance', () => {
  it('blanks each rectangle in every frame and leaves every other sample as it was', () => {
    // Arrange
    const file = multiFrame();
    const rectangles = [
      { x: 1, y: 2, width: 3, height: 2 },
      { x: 6, y: 6, width: 10, height: 10 },
    ];
    const inside = (x: number, y: number) => (x >= 1 && x < 4 && y >= 2 && y < 4) || (x >= 6 && y >= 6);

    // Act
    const redacted = redactInstance(file, rectangles);

    // Assert
    const all = samples(redacted);
    expect(all).toHaveLength(3 * 64);
    for (const s of all) expect(s.value).toBe(inside(s.x, s.y) ? 0 : 1000 + s.frame);
  });

  it('records the change in the header: BurnedInAnnotation NO, Clean Pixel Data in the method and its code', () => {
    // Arrange
    const file = multiFrame();

    // Act
    const parsed = parseDicom(redactInstance(file, [{ x: 0, y: 0, width: 2, height: 2 }]));

    // Assert
    expect(parsed.dataSet.string('x00280301')).toBe('NO');
    expect(parsed.dataSet.string('x00120063')).toContain('Clean Pixel Data');
    const items = parsed.dataSet.elements.x00120064!.items!;
    expect(items.map((item) => item.dataSet!.string('x00080100'))).toContain(CLEAN_PIXEL_DATA_CODE.value);
    expect(parsed.dataSet.string('x00080018')).toBe(parseDicom(file).dataSet.string('x00080018'));
    expect(parsed.dataSet.string('x00100010')).toBe(parseDicom(file).dataSet.string('x00100010'));
  });

  it('adds the Clean Pixel Data code to a de-identified file once, keeping its other codes', () => {
    // Arrange: a file that already has a method code sequence, redacted twice
    const extra: BuiltElement[] = [
      {
        tag: '00120064',
        vr: 'SQ',
        value: [
          [
            { tag: '00080100', vr: 'SH', value: '113100' },
            { tag: '00080102', vr: 'SH', value: 'DCM' },
            { tag: '00080104', vr: 'LO', value: 'Basic Application Confidentiality Profile' },
          ],
        ],
      },
    ];
    const file = buildDicom({ extra });

    // Act
    const twice = redactInstance(redactInstance(file, [{ x: 0, y: 0, width: 1, height: 1 }]), [
      { x: 1, y: 1, width: 1, height: 1 },
    ]);

    // Assert
    const codes = parseDicom(twice).dataSet.elements.x00120064!.items!.map((item) => item.dataSet!.string('x00080100'));
    expect(codes).toEqual(['113100', CLEAN_PIXEL_DATA_CODE.value]);
  });

  it('works in implicit VR too', () => {
    // Arrange
    const file = multiFrame('1.2.840.10008.1.2');

    // Act
    const redacted = redactInstance(file, [{ x: 0, y: 0, width: 8, height: 1 }]);

    // Assert
    const all = samples(redacted);
    expect(all.filter((s) => s.y === 0).every((s) => s.value === 0)).toBe(true);
    expect(all.filter((s) => s.y > 0).every((s) => s.value === 1000 + s.frame)).toBe(true);
  });

  it('refuses encapsulated (compressed) pixel data rather than writing over it', () => {
    // Arrange: the file meta names RLE Lossless (PS3.5 A.4.2), a syntax whose Pixel Data is encapsulated
    const file = buildDicom();
    const named = Buffer.from(file);
    const at = named.indexOf('1.2.840.10008.1.2.1\0', 0, 'latin1');
    named.write('1.2.840.10008.1.2.5', at, 'latin1');

    // Act / Assert
    expect(() => redactInstance(named, [{ x: 0, y: 0, width: 1, height: 1 }])).toThrow(PixelDataNotNativeError);
    expect(() => readPixelLayout(named)).toThrow(PixelDataNotNativeError);
  });
});

describe('renderFramePng', () => {
  it('renders the asked frame at the image size, windowed from its minimum to maximum', () => {
    // Arrange: the builder's ramp (sample i is i)
    const file = buildDicom();

    // Act
    const { png, layout } = renderFramePng(file, 0);

    // Assert
    const image = PNG.sync.read(Buffer.from(png));
    expect([image.width, image.height]).toEqual([8, 8]);
    expect(layout).toMatchObject({ rows: 8, columns: 8, frames: 1 });
    expect(image.data[0]).toBe(0);
    expect(image.data[63 * 4]).toBe(255);
    expect(() => renderFramePng(file, 1)).toThrow(RangeError);
  });

  it('subsamples a frame over the longest edge asked for, keeping the layout of the image', () => {
    // Arrange: the 8x8 ramp, at most 3 pixels an edge (every third pixel of every third row)
    const file = buildDicom();

    // Act
    const { png, layout } = renderFramePng(file, 0, 3);

    // Assert
    const image = PNG.sync.read(Buffer.from(png));
    expect([image.width, image.height]).toEqual([3, 3]);
    expect([layout.columns, layout.rows]).toEqual([8, 8]);
    // Pixel (1, 1) of the PNG is sample (3, 3) of the image, 27 of 0..63
    expect(image.data[(1 * 3 + 1) * 4]).toBe(Math.round((27 / 63) * 255));
  });
});
