import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deidentifyDicom, type DeidentifyContext } from '#shared/dicom/deidentify/index.ts';
import { ANNEX_E_ROWS, DESCRIPTOR_KEYWORDS, type AnnexERow } from '#shared/dicom/deidentify/profile.ts';
import { parseDicom } from '#shared/dicom/parse.ts';
import { TAG, parserKey } from '#shared/dicom/tags.ts';
import { AnonymizationOptionsSchema } from '#shared/schemas/api/datasets.ts';
import { type AnonymizationOptions } from '#shared/vocabulary/deidentification.ts';
import { vrOf, withElements, type BuiltElement } from '#tests/helpers/dicom-builder.ts';
import { deflatedCopy, requireTool } from '#tests/helpers/reference-tools.ts';
import { requireSharedData } from '#tests/helpers/shared-data.ts';

const DICOM = requireSharedData();
const WORK = mkdtempSync(join(tmpdir(), 'iws-free-text-'));
afterAll(() => rmSync(WORK, { recursive: true, force: true }));

const context = (options: Partial<AnonymizationOptions> = {}): DeidentifyContext => ({
  secret: 'free-text-secret',
  hospitalId: 'northside',
  options: AnonymizationOptionsSchema.parse(options),
});
const latin1 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

/** Synthetic PHI of the shapes free text carries: names, relatives, addresses, phones, SSNs, MRNs, written dates. */
const SENTENCE =
  'Lives at 12 Oak Street Springfield, husband Robert, phone (312) 555-0100, MRN A12345. ' +
  'Seen 3 March 2024 by Dr Alan Grant; SSN 123-45-6789; works as a plumber';
const LONG_STRINGS = [
  '12 Oak Street Springfield, husband Robert',
  'phone (312) 555-0100, MRN A12345',
  'Seen 3 March 2024 by Dr Alan Grant',
  'SSN 123-45-6789 plumber',
];
const SHORT_STRINGS = ['A12345', '555-0100', '03Mar2024', 'Robert', 'Grant', '123-45-6789', 'Plumber', 'Springfield'];
/**
 * The attributes Clean Descriptors marks C get PHI of their own, found nowhere else in the file, so that removing
 * the file's other identifying values from them cannot pass for cleaning.
 */
const C_SENTENCE =
  'Lives at 48 Elm Avenue Shelbyville, wife Martha, phone (217) 555-0199, MRN B67890; ' +
  'seen 14 April 2023 by Dr Ellie Sattler; SSN 987-65-4321; occupation welder';
const C_LONG_STRINGS = ['48 Elm Avenue Shelbyville, wife Martha', 'Seen 14 April 2023 by Dr Ellie Sattler'];
const C_SHORT_STRINGS = ['B67890', '555-0199', '14Apr2023', 'Martha', 'Sattler', '987-65-4321', 'Welder'];
const C_DESCRIPTOR = 'T1 MPRAGE D 14Apr2023 Sattler B67890';
/** None of these may be found anywhere in the output, in any case. */
const FRAGMENTS = [
  'Oak Street',
  'Springfield',
  'Robert',
  '555-0100',
  'A12345',
  '123-45-6789',
  'March 2024',
  '03Mar2024',
  'Alan Grant',
  'Grant',
  'plumber',
  'husband',
  'oakstreet',
  'Elm Avenue',
  'Shelbyville',
  'Martha',
  '555-0199',
  'B67890',
  '987-65-4321',
  'April 2023',
  '14Apr2023',
  'Sattler',
  'welder',
];

const TEXT_VRS = new Set(['LO', 'SH', 'LT', 'ST', 'UT', 'UC', 'PN', 'CS', 'AE', 'UR', 'OB', 'UN']);

function plantedValue(vr: string, row: AnnexERow, index: number): BuiltElement['value'] | undefined {
  if (DESCRIPTOR_KEYWORDS.has(row.keyword) && ['LO', 'SH', 'LT', 'ST', 'UT', 'UC'].includes(vr))
    return vr === 'SH' ? 'T1 14Apr2023' : C_DESCRIPTOR;
  if (row.options.descriptions === 'C') {
    if (['LT', 'ST', 'UT', 'UC', 'OB', 'UN'].includes(vr))
      return vr === 'OB' || vr === 'UN' ? new TextEncoder().encode(`${C_SENTENCE} `) : C_SENTENCE;
    if (vr === 'LO') return C_LONG_STRINGS[index % C_LONG_STRINGS.length]!;
    if (vr === 'SH' || vr === 'CS') return C_SHORT_STRINGS[index % C_SHORT_STRINGS.length]!.toUpperCase();
  }
  switch (vr) {
    case 'LT':
    case 'ST':
    case 'UT':
    case 'UC':
      return SENTENCE;
    case 'LO':
      return LONG_STRINGS[index % LONG_STRINGS.length]!;
    case 'SH':
    case 'AE':
      return SHORT_STRINGS[index % SHORT_STRINGS.length]!;
    case 'CS':
      return SHORT_STRINGS[index % SHORT_STRINGS.length]!.toUpperCase();
    case 'PN':
      return 'Grant^Robert^^Dr';
    case 'UR':
      return 'http://oakstreet.example/robert';
    case 'OB':
    case 'UN':
      return new TextEncoder().encode(`${SENTENCE} `);
    default:
      return undefined;
  }
}

/** Every Table E.1-1 attribute whose action is X, D (alone or in a composite) or whose descriptions option is C. */
function plantedElements(): BuiltElement[] {
  const out: BuiltElement[] = [];
  ANNEX_E_ROWS.forEach((row, index) => {
    const tag = row.tag.replace(/[(),]/g, '').toUpperCase();
    if (!/^[0-9A-F]{8}$/.test(tag) || tag.startsWith('0000') || tag.startsWith('0002')) return;
    if (!/[XD]/.test(row.action) && row.options.descriptions !== 'C') return;
    const vr = vrOf(tag);
    if (!TEXT_VRS.has(vr)) return;
    const value = plantedValue(vr, row, index);
    if (value !== undefined) out.push({ tag, vr, value });
  });
  return out;
}

/** The planted attributes at the top level, inside a kept sequence two levels deep, and in private blocks. */
function plantedFile(path: string): Uint8Array {
  const planted = plantedElements();
  const nested: BuiltElement[] = [
    ...planted.filter((element) => element.tag !== TAG.PixelData),
    { tag: '00189076', vr: 'SQ', value: [planted] },
  ];
  const extra: BuiltElement[] = [
    ...planted,
    // Shared Functional Groups (not in Table E.1-1: kept, its items de-identified like the top level).
    { tag: '52009229', vr: 'SQ', value: [nested] },
    { tag: '00090010', vr: 'LO', value: 'ACME NOTES' },
    { tag: '00091001', vr: 'LT', value: SENTENCE },
    { tag: '00091003', vr: 'LO', value: 'coil check done' },
    { tag: '00091002', vr: 'SQ', value: [[{ tag: '00104000', vr: 'LT', value: SENTENCE }]] },
    // Free text in the slots of the safe private list: the value's shape is not what the list promises.
    { tag: '00190010', vr: 'LO', value: 'SIEMENS MR HEADER' },
    { tag: '0019100C', vr: 'IS', value: 'Robert Grant A12345' },
    { tag: '0019100D', vr: 'CS', value: 'ROBERT' },
    { tag: '20050010', vr: 'LO', value: 'PHILIPS MR IMAGING DD 001' },
    { tag: '2005100D', vr: 'FL', value: new TextEncoder().encode('Robert Grant') },
  ];
  return withElements(new Uint8Array(readFileSync(join(DICOM, path))), extra);
}

const REAL_FILES = [
  'ge-t1-ir-spgr/dicom/00001.dcm',
  'philips-dti-b2000/dicom/601_WIP_dti_ax/0016.dcm',
  'siemens-dwi-mosaic/siemens_dwi_0.dcm.gz',
  'transfer-syntaxes/dicom/2.dcm',
  'transfer-syntaxes/dicom/9.dcm',
  'enhanced-mr-small/emri_small_big_endian.dcm',
  'ct-small/CT_small.dcm',
];

function survivors(text: string): string[] {
  const upper = text.toUpperCase();
  return FRAGMENTS.filter((fragment) => upper.includes(fragment.toUpperCase()));
}

function dcmdump(bytes: Uint8Array, name: string): string {
  const path = join(WORK, name);
  writeFileSync(path, bytes);
  const run = spawnSync(requireTool('dcmdump'), ['-q', path], { encoding: 'latin1' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

describe('free-text PHI planted in every C, X and D attribute of real files', () => {
  it.each(REAL_FILES)('%s: none survives in the output bytes or in dcmdump', (path) => {
    // Prepare
    const input = plantedFile(path);
    const name = path.replace(/\W+/g, '_');
    expect(survivors(latin1(input))).toEqual(FRAGMENTS);
    expect(survivors(dcmdump(input, `${name}.in.dcm`))).toEqual(FRAGMENTS);
    // Act
    const result = deidentifyDicom(input, context());
    // Assess
    expect(survivors(latin1(result.bytes))).toEqual([]);
    expect(survivors(dcmdump(result.bytes, `${name}.out.dcm`))).toEqual([]);
    const dataSet = parseDicom(result.bytes).dataSet;
    expect(dataSet.string(parserKey(TAG.SeriesDescription))).toBe('T1 MPRAGE');
    expect(dataSet.string(parserKey(TAG.ProtocolName))).toBe('T1 MPRAGE');
  });

  it('none survives in the deflated transfer syntax either', () => {
    const path = join(WORK, 'planted-plain.dcm');
    writeFileSync(path, plantedFile('ge-t1-ir-spgr/dicom/00001.dcm'));
    const result = deidentifyDicom(deflatedCopy(path), context());
    const parsed = parseDicom(result.bytes);
    expect(parsed.transferSyntaxUID).toBe('1.2.840.10008.1.2.1.99');
    expect(survivors(latin1(parsed.bytes))).toEqual([]);
    expect(survivors(dcmdump(result.bytes, 'deflated.out.dcm'))).toEqual([]);
  });

  it('with every retain option on, free text still goes; only keepAllPrivate keeps a non-listed private value', () => {
    const options = {
      retainPhysicianIdentity: true,
      retainInstitutionIdentity: true,
      retainUids: true,
      retainLongitudinalDates: true,
      retainPatientCharacteristics: true,
      keepPrivate: true,
    };
    const input = plantedFile('ge-t1-ir-spgr/dicom/00001.dcm');
    const dataSet = parseDicom(deidentifyDicom(input, context(options)).bytes).dataSet;
    for (const keyword of ['PatientComments', 'AdditionalPatientHistory', 'Occupation', 'Allergies', 'PatientState']) {
      const row = ANNEX_E_ROWS.find((entry) => entry.keyword === keyword)!;
      expect(dataSet.elements[`x${row.tag.replace(/[(),]/g, '').toLowerCase()}`], keyword).toBeUndefined();
    }
    expect(dataSet.elements.x00091003).toBeUndefined();
    const all = parseDicom(deidentifyDicom(input, context({ keepAllPrivate: true })).bytes).dataSet;
    expect(all.string('x00091003')).toBe('coil check done');
    // Even then, a private value that repeats the file's identifying strings goes.
    expect(all.elements.x00091001).toBeUndefined();
  });
});
