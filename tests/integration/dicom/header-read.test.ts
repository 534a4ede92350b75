import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gunzipIfNeeded, parseDicomHeader } from '#shared/dicom/parse.ts';
import { readSeriesFileMetadata } from '#shared/dicom/metadata.ts';
import { checkDicom, checkDicomHeader, firstBytesAfter, HEADER_READ } from '#shared/dicom/validate.ts';
import { buildDicom, buildStudy, rampPixels, withElements, type BuiltElement } from '#tests/helpers/dicom-builder.ts';
import { listFiles, requireSharedData } from '#tests/helpers/shared-data.ts';

const DICOM = requireSharedData();
const read = (path: string) => new Uint8Array(readFileSync(join(DICOM, path)));

/** A file read by its first bytes, as the browser reads a File's slice, with the ends asked for. */
function byRanges(bytes: Uint8Array) {
  const ends: number[] = [];
  return {
    ends,
    read: async (end: number) => {
      ends.push(end);
      return bytes.slice(0, end);
    },
  };
}

/** What the upload wizard takes from a file: its verdict, and its metadata when it is valid. */
function outcome(check: ReturnType<typeof checkDicom> | Awaited<ReturnType<typeof checkDicomHeader>>, size: number) {
  if (!check.valid) return { message: check.message, limit: check.limit };
  const elements = 'parsed' in check ? check.parsed : check.header;
  try {
    return { metadata: readSeriesFileMetadata(elements, 'file.dcm', size) };
  } catch {
    return { metadata: 'unreadable' };
  }
}

async function expectSameAsWholeRead(bytes: Uint8Array) {
  const ranges = byRanges(bytes);
  const header = await checkDicomHeader(bytes.length, ranges.read);
  expect(outcome(header, bytes.length)).toEqual(outcome(checkDicom(bytes), bytes.length));
  return { header, ends: ranges.ends };
}

/** A 256 x 256 16-bit image (128 KiB of Pixel Data), so the header is a small part of the file. */
const LARGE_IMAGE: BuiltElement[] = [
  { tag: '00280010', vr: 'US', value: [256] },
  { tag: '00280011', vr: 'US', value: [256] },
  { tag: '7FE00010', vr: 'OW', value: rampPixels(256, 256) },
];

describe('checkDicomHeader: the header alone, with the answer of a whole read', () => {
  it.each(listFiles(DICOM).map((path) => [path.slice(DICOM.length + 1)]))(
    'answers for %s what checkDicom answers on the whole file',
    async (path) => {
      await expectSameAsWholeRead(read(path));
    },
  );

  it('reads only the first 16 KiB of an uncompressed file whose header fits in them', async () => {
    // Prepare
    const bytes = read('ge-t1-ir-spgr/dicom/00001.dcm');
    // Act
    const { header, ends } = await expectSameAsWholeRead(bytes);
    // Assess
    expect(bytes.length).toBeGreaterThan(HEADER_READ.firstBytes);
    expect(ends).toEqual([HEADER_READ.firstBytes]);
    expect(header.valid && header.header.dataSet.string('x00080060')).toBe('MR');
  });

  it.each(['1.2.840.10008.1.2', '1.2.840.10008.1.2.1', '1.2.840.10008.1.2.2'])(
    "reads the project generator's large image in %s from its header, with the same metadata",
    async (transferSyntaxUID) => {
      const bytes = buildDicom({ transferSyntaxUID, extra: LARGE_IMAGE });
      const { ends } = await expectSameAsWholeRead(bytes);
      expect(ends).toEqual([HEADER_READ.firstBytes]);
    },
  );

  it("gives the generator's studies the same series metadata as the whole read", async () => {
    const files = buildStudy([{ seriesNumber: 2, slices: 3, seriesDescription: 'DWI b1000' }, { seriesNumber: 5 }]);
    for (const { bytes } of files) await expectSameAsWholeRead(withElements(bytes, LARGE_IMAGE));
  });

  it('reads further while the header goes past the first bytes, never the Pixel Data, and starts the next file there', async () => {
    // Prepare: 100 KiB of private data before the Pixel Data, 1 MiB of Pixel Data.
    const bytes = buildDicom({
      extra: [
        { tag: '00090010', vr: 'LO', value: 'IWS TEST' },
        { tag: '00091001', vr: 'OB', value: new Uint8Array(100 * 1024) },
        { tag: '00280010', vr: 'US', value: [2048] },
        { tag: '00280011', vr: 'US', value: [256] },
        { tag: '7FE00010', vr: 'OW', value: rampPixels(2048, 256) },
      ],
    });
    const pixelDataOffset = bytes.length - 2048 * 256 * 2;
    // Act
    const first = await expectSameAsWholeRead(bytes);
    const next = firstBytesAfter(first.header, HEADER_READ.firstBytes);
    const second = byRanges(bytes);
    const again = await checkDicomHeader(bytes.length, second.read, next);
    // Assess
    expect(first.ends).toEqual([HEADER_READ.firstBytes, HEADER_READ.firstBytes * 4, HEADER_READ.firstBytes * 16]);
    expect(next).toBeGreaterThan(pixelDataOffset);
    expect(next).toBeLessThanOrEqual(pixelDataOffset + 8192);
    expect(second.ends).toEqual([next]);
    expect(outcome(again, bytes.length)).toEqual(outcome(first.header, bytes.length));
    expect(firstBytesAfter({ valid: false, message: 'Not a DICOM file' }, next)).toBe(next);
  });

  it('answers a truncated file as the whole read does, from the whole file', async () => {
    // Prepare
    const whole = buildDicom({ extra: LARGE_IMAGE });
    const cutInPixels = whole.slice(0, whole.length - 1000);
    const cutInMeta = whole.slice(0, 200);
    // Act
    const inPixels = await expectSameAsWholeRead(cutInPixels);
    const inMeta = await expectSameAsWholeRead(cutInMeta);
    // Assess: the Pixel Data's declared length passes the file's end, so the whole file is read and parsed; the
    // lenient parse keeps what was read before the damage (docs/domain.md#dicom-validity).
    expect(inPixels.ends.at(-1)).toBe(cutInPixels.length);
    expect(inMeta.header).toEqual({ valid: false, message: 'DICOM parsing failed' });
  });

  it('answers a file whose header is damaged past the first bytes from the whole file, as the whole read', async () => {
    // Prepare: after 300 KiB of private data, an element whose length runs past the end of the file.
    const bytes = buildDicom({
      extra: [
        { tag: '00090010', vr: 'LO', value: 'IWS TEST' },
        { tag: '00091001', vr: 'OB', value: new Uint8Array(300 * 1024) },
        { tag: '00091002', vr: 'OB', value: new Uint8Array(16) },
        ...LARGE_IMAGE,
      ],
    });
    // (0009,1002) OB in explicit VR little endian: tag, VR, 2 reserved bytes, then its 4-byte length.
    const element = Buffer.from(bytes).indexOf(Buffer.from([0x09, 0x00, 0x02, 0x10, 0x4f, 0x42]));
    new DataView(bytes.buffer).setUint32(element + 8, 0x7ffffff0, true);
    // Act
    const { ends } = await expectSameAsWholeRead(bytes);
    // Assess
    expect(element).toBeGreaterThan(HEADER_READ.firstBytes * HEADER_READ.growth);
    expect(ends.at(-1)).toBe(bytes.length);
  });

  it('rejects files that are not DICOM with "Not a DICOM file"', async () => {
    const text = new TextEncoder().encode('not an image\n'.repeat(10_000));
    const noise = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 7919) % 251);
    for (const bytes of [text, noise, read('transfer-syntaxes/ref/1.nii')]) {
      const { header } = await expectSameAsWholeRead(bytes);
      expect(header).toEqual({ valid: false, message: 'Not a DICOM file' });
    }
  });

  it('reads the whole file where only a full parse can tell: bytes after the Pixel Data, gzip, encapsulated', async () => {
    const trailing = new Uint8Array([...buildDicom({ extra: LARGE_IMAGE }), ...new Uint8Array(64)]);
    for (const bytes of [
      trailing,
      read('siemens-dwi-mosaic/siemens_dwi_0.dcm.gz'),
      read('transfer-syntaxes/dicom/5.dcm'),
    ]) {
      const { ends } = await expectSameAsWholeRead(bytes);
      expect(ends.at(-1)).toBe(bytes.length);
    }
  });

  it('leaves to the whole read an implicit VR Pixel Data that starts like a sequence item', async () => {
    // Prepare: PS3.5 7.5 item tag (FFFE,E000) as the first bytes of the pixel values.
    const pixels = rampPixels(256, 256);
    pixels.set([0xfe, 0xff, 0x00, 0xe0], 0);
    const bytes = buildDicom({
      transferSyntaxUID: '1.2.840.10008.1.2',
      extra: [...LARGE_IMAGE.slice(0, 2), { tag: '7FE00010', vr: 'OW', value: pixels }],
    });
    // Act
    const answer = parseDicomHeader(bytes.slice(0, HEADER_READ.firstBytes), bytes.length);
    // Assess
    expect(answer).toEqual({ read: 'whole' });
    await expectSameAsWholeRead(bytes);
  });

  it('answers as the whole read on mutated, truncated and extended files', async () => {
    // Prepare: a small deterministic PRNG (mulberry32), so a failing case can be replayed from its round.
    let state = 20261125;
    const next = () => {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const seeds = [
      read('ge-t1-ir-spgr/dicom/00001.dcm'),
      read('transfer-syntaxes/dicom/1.dcm'),
      read('transfer-syntaxes/dicom/2.dcm'),
      read('transfer-syntaxes/dicom/3.dcm'),
      gunzipIfNeeded(read('siemens-dwi-mosaic/siemens_dwi_0.dcm.gz')),
      buildDicom({ transferSyntaxUID: '1.2.840.10008.1.2', extra: LARGE_IMAGE }),
    ];
    // Act + Assess
    for (let round = 0; round < 240; round++) {
      const seed = seeds[round % seeds.length]!;
      const kind = Math.floor(next() * 4);
      let bytes: Uint8Array;
      if (kind === 0) bytes = seed.slice(0, Math.floor(next() * seed.length));
      else if (kind === 3) bytes = new Uint8Array([...seed, ...new Uint8Array(1 + Math.floor(next() * 300))]);
      else {
        bytes = seed.slice();
        const span = kind === 1 ? Math.min(bytes.length, 8192) : bytes.length;
        for (let i = 0; i < 1 + Math.floor(next() * 8); i++)
          bytes[Math.floor(next() * span)] = Math.floor(next() * 256);
      }
      await expectSameAsWholeRead(bytes);
    }
  });
});
