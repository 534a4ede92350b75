import { deidentifyDicom } from '#shared/dicom/deidentify/index.ts';
import { AnonymizationOptionsSchema } from '#shared/schemas/api/datasets.ts';
import { baseElements, encodePart10, type BuiltElement } from '#tests/helpers/dicom-builder.ts';
const context = { secret: 'limits', hospitalId: 'northside', options: AnonymizationOptionsSchema.parse({}) };
function textHeavy(bytes: number): Uint8Array {
  const items: BuiltElement[][] = [];
  for (let i = 0; i < bytes / 160; i++) items.push([
      { tag: '00081030', vr: 'LO', value: `T1 MPRAGE ${i} Smith${i}` },
      { tag: '00100010', vr: 'PN', value: `Doe${i}^John` },
      { tag: '00100020', vr: 'LO', value: `MRN${i}` },
      { tag: '00104000', vr: 'LT', value: `Lives at ${i} Oak Street, phone 555-01${i} Doe${i}` },
      { tag: '00080070', vr: 'LO', value: `ACME ${i} Doe${i}` },
    ]);
  return encodePart10([...baseElements(), { tag: '00081115', vr: 'SQ', value: items }], '1.2.840.10008.1.2.1');
}
for (const mb of [2]) {
  let t = performance.now(); const f = textHeavy(mb * 1024 * 1024); console.log('gen', mb, f.length, (performance.now() - t).toFixed(0));
  for (let k = 0; k < 2; k++) { t = performance.now(); deidentifyDicom(f, context); console.log('deid', (performance.now() - t).toFixed(0)); }
}
