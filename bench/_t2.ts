import { writeFileSync, readFileSync, existsSync } from 'node:fs';
import { deidentifyDicom } from '#shared/dicom/deidentify/index.ts';
import { collectIdentifiers } from '#shared/dicom/deidentify/rules.ts';
import { IdentifierIndex } from '#shared/dicom/deidentify/text.ts';
import { resolveProfile } from '#shared/dicom/deidentify/profile.ts';
import { readDataSet, readMetaGroup } from '#shared/dicom/deidentify/tokenize.ts';
import { AnonymizationOptionsSchema } from '#shared/schemas/api/datasets.ts';
import { baseElements, encodePart10, type BuiltElement } from '#tests/helpers/dicom-builder.ts';
const context = { secret: 'limits', hospitalId: 'northside', options: AnonymizationOptionsSchema.parse({}) };
const path = '/tmp/deid/heavy2.dcm';
if (!existsSync(path)) {
  const items: BuiltElement[][] = [];
  for (let i = 0; i < 2*1024*1024 / 160; i++) items.push([
      { tag: '00081030', vr: 'LO', value: `T1 MPRAGE ${i} Smith${i}` },
      { tag: '00100010', vr: 'PN', value: `Doe${i}^John` },
      { tag: '00100020', vr: 'LO', value: `MRN${i}` },
      { tag: '00104000', vr: 'LT', value: `Lives at ${i} Oak Street, phone 555-01${i} Doe${i}` },
      { tag: '00080070', vr: 'LO', value: `ACME ${i} Doe${i}` },
    ]);
  writeFileSync(path, encodePart10([...baseElements(), { tag: '00081115', vr: 'SQ', value: items }], '1.2.840.10008.1.2.1'));
}
const f = new Uint8Array(readFileSync(path));
const profile = resolveProfile(context.options);
for (let k = 0; k < 3; k++) {
  let t = performance.now();
  const meta = readMetaGroup(f, 132);
  const els = readDataSet(f, meta.next, { explicit: true, littleEndian: true }).elements;
  const t1 = performance.now();
  const ids = collectIdentifiers(els, f, profile);
  const t2 = performance.now();
  const idx = new IdentifierIndex(ids);
  const t3 = performance.now();
  deidentifyDicom(f, context);
  const t4 = performance.now();
  console.log('read', (t1 - t).toFixed(0), 'collect', (t2 - t1).toFixed(0), ids.length, 'index', (t3 - t2).toFixed(0), 'total deid', (t4 - t3).toFixed(0));
}
