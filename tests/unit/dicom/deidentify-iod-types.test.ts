import { describe, expect, it } from 'vitest';
import { deidentifyDicom } from '#shared/dicom/deidentify/index.ts';
import {
  IOD_TYPES_SOURCE,
  attributeType,
  iodTypesFor,
  resolveComposite,
  type TypeLookup,
} from '#shared/dicom/deidentify/iod-types.ts';
import { parseDicom } from '#shared/dicom/parse.ts';
import { AnonymizationOptionsSchema } from '#shared/schemas/api/datasets.ts';
import { buildDicom, type BuiltElement } from '#tests/helpers/dicom-builder.ts';

const MR = '1.2.840.10008.5.1.4.1.1.4';
const ENHANCED_MR = '1.2.840.10008.5.1.4.1.1.4.1';

describe('attribute types per IOD (PS3.3, generated from GDCM Part3.xml)', () => {
  it('names its source and edition', () => {
    expect(IOD_TYPES_SOURCE).toMatchObject({ package: 'libgdcm3.0', edition: '2008' });
  });

  it('gives the type of an attribute in the IOD of the SOP Class, the stricter where two modules name it', () => {
    const enhanced = iodTypesFor(ENHANCED_MR);
    const mr = iodTypesFor(MR);
    // Content Date/Time: Type 1 in the Multi-frame Functional Groups Module, 2C in General Image.
    expect(attributeType(enhanced, [], '00080023')).toBe('1');
    expect(attributeType(enhanced, [], '00080033')).toBe('1');
    expect(attributeType(mr, [], '00080023')).toBe('2C');
    // Device Serial Number: Type 1 in Enhanced General Equipment, 3 in General Equipment.
    expect(attributeType(enhanced, [], '00181000')).toBe('1');
    expect(attributeType(mr, [], '00181000')).toBe('3');
    expect(attributeType(mr, [], '00081111')).toBe('3');
  });

  it('looks nested attributes up by their path, then by the macro of the sequence around them', () => {
    const mr = iodTypesFor(MR);
    // Request Attributes Sequence (General Series) > Requested Procedure Description: by the IOD's own path.
    expect(attributeType(mr, ['00400275'], '00321060')).toBe('3');
    // Inside a sequence the IOD leaves open, the macro defining its items answers.
    expect(attributeType(mr, ['52009230', '00081115'], '00081140')).toBe('1');
    expect(attributeType(mr, ['52009230', '7777AAAA'], '00080080')).toBe('unknown');
    // At the top level, an attribute no module of the IOD names is absent; an unknown SOP Class knows nothing.
    expect(attributeType(mr, [], '30080105')).toBe('absent');
    expect(attributeType(iodTypesFor('1.2.3.4'), [], '00080023')).toBe('unknown');
  });
});

describe('composite actions resolved by type (PS3.15 E.3.1)', () => {
  const cases: [string, TypeLookup, string, boolean, string, string][] = [
    ['Z/D', '1', 'DA', false, '00080023', 'dummy'],
    ['Z/D', '2C', 'DA', false, '00080023', 'empty'],
    ['X/Z/D', '1C', 'DT', false, '0008002A', 'dummy'],
    ['X/Z/D', '3', 'LO', false, '00181000', 'remove'],
    ['X/D', 'absent', 'DA', false, '00080021', 'remove'],
    ['X/D', '2', 'DA', false, '00080021', 'dummy'],
    ['X/Z', '1', 'DA', false, '00080022', 'empty'],
    ['Z/D', '3', 'DA', false, '00080023', 'empty'],
    ['X/Z/D', 'unknown', 'LO', false, '00181000', 'dummy'],
    ['X/Z/D', '1', 'SQ', true, '00081111', 'items'],
    ['X/Z/D', '3', 'SQ', true, '00081111', 'remove'],
    ['X/Z/D', '1', 'SQ', true, '00080082', 'empty'],
    ['X/D', 'unknown', 'SQ', true, '00081072', 'remove'],
    ['X/Z/U*', '3', 'SQ', true, '00081140', 'items'],
    ['X/Z/U*', '2', 'SQ', true, '00082112', 'items'],
  ];
  it.each(cases)('%s, type %s, %s → %s', (action, type, vr, sequence, tag, expected) => {
    expect(resolveComposite(action, type, vr, sequence, tag)).toBe(expected);
  });
});

describe('deidentifyDicom keeps the IOD valid', () => {
  const reference: BuiltElement = {
    tag: '00081111',
    vr: 'SQ',
    value: [
      [
        { tag: '00081150', vr: 'UI', value: '1.2.840.10008.3.1.2.3.3' },
        { tag: '00081155', vr: 'UI', value: '1.2.826.0.1.3680043.9.9999.77' },
      ],
    ],
  };
  const extra = (sopClass: string): BuiltElement[] => [
    { tag: '00080016', vr: 'UI', value: sopClass },
    { tag: '00080023', vr: 'DA', value: '20240305' },
    { tag: '00080033', vr: 'TM', value: '101500' },
    { tag: '00181000', vr: 'LO', value: 'SN-4711' },
    reference,
    {
      tag: '00080082',
      vr: 'SQ',
      value: [
        [
          { tag: '00080100', vr: 'SH', value: 'NSH' },
          { tag: '00080102', vr: 'SH', value: 'LOCAL' },
          { tag: '00080104', vr: 'LO', value: 'Northside Hospital' },
        ],
      ],
    },
  ];
  const deidentified = (sopClass: string) =>
    deidentifyDicom(buildDicom({ extra: extra(sopClass) }), {
      secret: 'iod-secret',
      hospitalId: 'northside',
      options: AnonymizationOptionsSchema.parse({}),
    }).bytes;
  const run = (sopClass: string) => parseDicom(deidentified(sopClass)).dataSet;

  it('gives Type 1 attributes of an Enhanced MR a dummy, not an empty value', () => {
    const out = run(ENHANCED_MR);
    expect(out.string('x00080023')).toBe('19000101');
    expect(out.string('x00080033')).toBe('000000');
    expect(out.string('x00181000')).toBe('ANONYMIZED');
  });

  it('empties Type 2 and removes Type 3 attributes of an MR Image, sequences included', () => {
    const out = run(MR);
    expect(out.elements.x00080023?.length).toBe(0);
    expect(out.elements.x00181000).toBeUndefined();
    expect(out.elements.x00081111).toBeUndefined();
  });

  it('never keeps the items of a code sequence naming the institution, whatever the SOP Class', () => {
    for (const sopClass of [MR, ENHANCED_MR, '1.2.3.4']) {
      const bytes = deidentified(sopClass);
      expect(parseDicom(bytes).dataSet.elements.x00080082?.items ?? [], sopClass).toEqual([]);
      expect(Buffer.from(bytes).toString('latin1'), sopClass).not.toContain('Northside');
    }
  });

  it('gives a UID whose action is a dummy (D) a derived UID, not bytes of zeros', () => {
    const bytes = deidentifyDicom(
      buildDicom({ extra: [{ tag: '006A0003', vr: 'UI', value: '1.2.826.0.1.3680043.9.9999.55' }] }),
      { secret: 'iod-secret', hospitalId: 'northside', options: AnonymizationOptionsSchema.parse({}) },
    ).bytes;
    expect(parseDicom(bytes).dataSet.string('x006a0003')).toMatch(/^2\.25\.\d+$/);
  });

  it('keeps a reference sequence of an unknown SOP Class with its instance UID replaced', () => {
    const out = run('1.2.3.4');
    const items = out.elements.x00081111?.items ?? [];
    expect(items).toHaveLength(1);
    expect(items[0]!.dataSet!.string('x00081150')).toBe('1.2.840.10008.3.1.2.3.3');
    expect(items[0]!.dataSet!.string('x00081155')).toMatch(/^2\.25\.\d+$/);
  });
});
