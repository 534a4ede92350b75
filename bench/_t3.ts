import { concatBytes } from '#shared/dicom/bytes.ts';
import { deidentifyDicom } from '#shared/dicom/deidentify/index.ts';
import { AnonymizationOptionsSchema } from '#shared/schemas/api/datasets.ts';
import { baseElements, encodeDataSet, encodePart10 } from '#tests/helpers/dicom-builder.ts';
const context = { secret: 'limits', hospitalId: 'northside', options: AnonymizationOptionsSchema.parse({}) };
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


let t = performance.now();
const f = textHeavy(10 * 1024 * 1024);
console.log('gen', (performance.now() - t).toFixed(0));
for (let k = 0; k < 2; k++) { t = performance.now(); deidentifyDicom(f, context); console.log('deid', (performance.now() - t).toFixed(0)); }
