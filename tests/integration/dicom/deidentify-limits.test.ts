import { deflateRawSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { concatBytes } from '#shared/dicom/bytes.ts';
import { deidentifyDicom, type DeidentifyContext } from '#shared/dicom/deidentify/index.ts';
import { DicomLimitError } from '#shared/dicom/errors.ts';
import { DICOM_LIMITS } from '#shared/dicom/limits.ts';
import { parseDicom } from '#shared/dicom/parse.ts';
import { checkDicom } from '#shared/dicom/validate.ts';
import { AnonymizationOptionsSchema } from '#shared/schemas/api/datasets.ts';
import { ERROR_CATALOGUE, catalogueMessage } from '#shared/vocabulary/errors.ts';
import {
  baseElements,
  buildDicom,
  encodeDataSet,
  encodePart10,
  type BuiltElement,
} from '#tests/helpers/dicom-builder.ts';

const context: DeidentifyContext = {
  secret: 'limits',
  hospitalId: 'northside',
  options: AnonymizationOptionsSchema.parse({}),
};

function limitError(run: () => unknown): DicomLimitError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DicomLimitError);
    return error as DicomLimitError;
  }
  throw new Error('expected a DicomLimitError');
}

/** A Part 10 file in the deflated syntax whose dataset is the given compressed bytes. */
function deflatedFile(compressed: Uint8Array): Uint8Array {
  const explicitLittle = { explicit: true, littleEndian: true };
  const metaBody = encodeDataSet(
    [
      { tag: '00020001', vr: 'OB', value: new Uint8Array([0, 1]) },
      { tag: '00020002', vr: 'UI', value: '1.2.840.10008.5.1.4.1.1.4' },
      { tag: '00020003', vr: 'UI', value: '1.2.826.0.1.3680043.9.9999.1' },
      { tag: '00020010', vr: 'UI', value: '1.2.840.10008.1.2.1.99' },
    ],
    explicitLittle,
  );
  const groupLength = encodeDataSet([{ tag: '00020000', vr: 'UL', value: [metaBody.length] }], explicitLittle);
  const prefix = new Uint8Array(132);
  prefix.set([0x44, 0x49, 0x43, 0x4d], 128);
  return concatBytes([prefix, groupLength, metaBody, compressed]);
}

describe('decompression is bounded', () => {
  const bomb = new Uint8Array(gzipSync(Buffer.alloc(80 * 1024 * 1024), { level: 1 }));

  it('a gzip bomb stops at the limit with the catalogue error, in the de-identifier and the validity check', () => {
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const error = limitError(() => deidentifyDicom(bomb, context));
    expect(error.code).toBe('DICOM_DECOMPRESSED_TOO_LARGE');
    expect(error.limit).toBe(DICOM_LIMITS.inflateFloorBytes);
    expect(error.message).toBe(catalogueMessage('DICOM_DECOMPRESSED_TOO_LARGE', { n: DICOM_LIMITS.inflateFloorBytes }));
    expect(ERROR_CATALOGUE.DICOM_DECOMPRESSED_TOO_LARGE.status).toBe(413);
    expect(limitError(() => parseDicom(bomb)).code).toBe('DICOM_DECOMPRESSED_TOO_LARGE');
    expect(checkDicom(bomb)).toEqual({
      valid: false,
      message: 'DICOM parsing failed',
      limit: 'DICOM_DECOMPRESSED_TOO_LARGE',
    });
  });

  it('a deflated-syntax dataset that inflates past the limit stops the same way', () => {
    const file = deflatedFile(new Uint8Array(deflateRawSync(Buffer.alloc(80 * 1024 * 1024), { level: 1 })));
    expect(limitError(() => deidentifyDicom(file, context)).code).toBe('DICOM_DECOMPRESSED_TOO_LARGE');
    expect(limitError(() => parseDicom(file)).code).toBe('DICOM_DECOMPRESSED_TOO_LARGE');
  });

  it('a gzip file under the limit still de-identifies', () => {
    const result = deidentifyDicom(new Uint8Array(gzipSync(buildDicom())), context);
    expect(parseDicom(result.bytes).dataSet.string('x00120062')).toBe('YES');
  });
});

describe('structure is bounded', () => {
  it('sequences nested deeper than the limit are refused with the catalogue error', () => {
    let nested: BuiltElement[] = [{ tag: '00081030', vr: 'LO', value: 'T1' }];
    for (let level = 0; level <= DICOM_LIMITS.maxSequenceDepth; level++)
      nested = [{ tag: '00081115', vr: 'SQ', value: [nested] }];
    const file = buildDicom({ extra: nested });
    const error = limitError(() => deidentifyDicom(file, context));
    expect(error.code).toBe('DICOM_NESTED_TOO_DEEP');
    expect(error.message).toBe(`DICOM sequences are nested deeper than ${DICOM_LIMITS.maxSequenceDepth} levels`);
  });

  it('a file with more data elements than the limit is refused with the catalogue error', () => {
    // Empty private elements: 8 bytes each in explicit VR, so the file stays small for its element count.
    const count = DICOM_LIMITS.maxElements + 1;
    const element = new Uint8Array([0x11, 0x00, 0x00, 0x10, 0x4c, 0x4f, 0x00, 0x00]);
    const flood = new Uint8Array(count * 8);
    for (let i = 0; i < count; i++) flood.set(element, i * 8);
    const head = encodePart10(
      baseElements().filter((e) => e.tag < '00110000'),
      '1.2.840.10008.1.2.1',
    );
    const file = new Uint8Array(head.length + flood.length);
    file.set(head);
    file.set(flood, head.length);
    expect(limitError(() => deidentifyDicom(file, context)).code).toBe('DICOM_TOO_MANY_ELEMENTS');
  });
});

const u16 = (n: number) => String.fromCharCode(n & 0xff, (n >> 8) & 0xff);
const u32 = (n: number) => u16(n & 0xffff) + u16(n >>> 16);
/** One explicit little endian element with a short-VR text value, as a binary string. */
const element = (group: number, number: number, vr: string, text: string) => {
  const value = text.length % 2 ? `${text} ` : text;
  return u16(group) + u16(number) + vr + u16(value.length) + value;
};

/**
 * A text-heavy file of about `bytes` (explicit little endian): a sequence of items, each with a description, a name,
 * an ID, free text and a kept text that repeats the name. Written as one binary string, so a 10 MB file takes
 * a moment to build.
 */
function textHeavy(bytes: number): Uint8Array {
  const items: string[] = [];
  let length = 0;
  for (let i = 0; length < bytes; i++) {
    const body =
      element(0x0008, 0x0070, 'LO', `ACME ${i} Doe${i}`) +
      element(0x0008, 0x1030, 'LO', `T1 MPRAGE ${i} Smith${i}`) +
      element(0x0010, 0x0010, 'PN', `Doe${i}^John`) +
      element(0x0010, 0x0020, 'LO', `MRN${i}`) +
      element(0x0010, 0x4000, 'LT', `Lives at ${i} Oak Street, phone 555-01${i} Doe${i}`);
    const item = u16(0xfffe) + u16(0xe000) + u32(body.length) + body;
    items.push(item);
    length += item.length;
  }
  const sequence = u16(0x0008) + u16(0x1115) + 'SQ\0\0' + u32(length) + items.join('');
  const explicitLittle = { explicit: true, littleEndian: true };
  const head = encodePart10(
    baseElements().filter((e) => e.tag < '00081115'),
    '1.2.840.10008.1.2.1',
  );
  const tail = encodeDataSet(
    baseElements().filter((e) => e.tag > '00081115'),
    explicitLittle,
  );
  return concatBytes([head, new Uint8Array(Buffer.from(sequence, 'latin1')), tail]);
}

function timed(file: Uint8Array): number {
  const started = performance.now();
  deidentifyDicom(file, context);
  return performance.now() - started;
}

describe('work is linear in the file size', () => {
  it('a 10 MB text-heavy file de-identifies in seconds, and 10x the size takes about 10x the time', () => {
    const small = textHeavy(1024 * 1024);
    const large = textHeavy(10 * 1024 * 1024);
    expect(large.length).toBeGreaterThan(10 * 1024 * 1024);
    timed(small); // warm-up
    const smallMs = Math.min(timed(small), timed(small));
    const largeMs = timed(large);
    // Generous for a shared machine: the quadratic engine took minutes on this file.
    expect(largeMs).toBeLessThan(30_000);
    // Linear gives about 10; quadratic would give about 100.
    expect(largeMs / smallMs).toBeLessThan(30);
    // Every identifier of the items is gone, kept text included.
    const text = Buffer.from(deidentifyDicom(textHeavy(64 * 1024), context).bytes).toString('latin1');
    expect(text).not.toMatch(/Doe\d|Oak Street|Smith\d|MRN\d/);
    expect(text).toContain('ACME');
  }, 120_000);
});
