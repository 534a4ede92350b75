import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deidentifyDicom, DEIDENTIFICATION_PROFILE, type DeidentifyContext } from '#shared/dicom/deidentify/index.ts';
import { iodTypesFor } from '#shared/dicom/deidentify/iod-types.ts';
import {
  ANNEX_E_BY_TAG,
  DESCRIPTOR_KEYWORDS,
  actionAt,
  effectiveAction,
  resolveProfile,
} from '#shared/dicom/deidentify/profile.ts';
import { cleanDescription, isDescriptorWord } from '#shared/dicom/deidentify/vocabulary.ts';
import { nodeText, readDataSet, readMetaGroup, type DicomNode } from '#shared/dicom/deidentify/tokenize.ts';
import { gunzipIfNeeded, parseDicom } from '#shared/dicom/parse.ts';
import { AnonymizationOptionsSchema } from '#shared/schemas/api/datasets.ts';
import { type AnonymizationOptions } from '#shared/vocabulary/deidentification.ts';
import { buildPlantedDicom } from '#tests/helpers/dicom-builder.ts';
import { deflatedCopy, requireTool } from '#tests/helpers/reference-tools.ts';
import { listFiles, requireSharedData } from '#tests/helpers/shared-data.ts';

const DICOM = requireSharedData();
const WORK = mkdtempSync(join(tmpdir(), 'iws-deid-'));
afterAll(() => rmSync(WORK, { recursive: true, force: true }));

const context = (options: Partial<AnonymizationOptions> = {}, hospitalId = 'northside'): DeidentifyContext => ({
  secret: 'test-secret',
  hospitalId,
  options: AnonymizationOptionsSchema.parse(options),
});
const read = (path: string) => new Uint8Array(readFileSync(join(DICOM, path)));
const latin1 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

function pixelBytes(bytes: Uint8Array): Uint8Array {
  const parsed = parseDicom(bytes);
  const element = parsed.dataSet.elements.x7fe00010!;
  return parsed.bytes.subarray(element.dataOffset, element.dataOffset + element.length);
}

/** Every element of a file, at every depth, with the path of sequence tags above it. */
function allNodes(bytes: Uint8Array): { nodes: { node: DicomNode; depth: number }[]; source: Uint8Array } {
  const plain = gunzipIfNeeded(bytes);
  const meta = readMetaGroup(plain, 132);
  const syntax = nodeText(
    plain,
    meta.elements.find((node) => node.tag === '00020010')!,
  );
  const encoding =
    syntax === '1.2.840.10008.1.2'
      ? { explicit: false, littleEndian: true }
      : syntax === '1.2.840.10008.1.2.2'
        ? { explicit: true, littleEndian: false }
        : { explicit: true, littleEndian: true };
  const nodes: { node: DicomNode; depth: number }[] = [];
  const walk = (list: DicomNode[], depth: number) => {
    for (const node of list) {
      nodes.push({ node, depth });
      for (const item of node.items ?? []) walk(item.elements, depth + 1);
    }
  };
  walk(readDataSet(plain, meta.next, encoding).elements, 0);
  return { nodes, source: plain };
}

/**
 * The identifying values of a file under the given options: text of table attributes not kept, and replaced UIDs.
 * A description that Clean Descriptors keeps contributes its words outside the vocabulary; a kept attribute (none
 * under the default options) contributes nothing, and the row-by-row test below checks it is kept as it was.
 */
function originalIdentifiers(bytes: Uint8Array, options: AnonymizationOptions): string[] {
  const profile = resolveProfile(options);
  const { nodes, source } = allNodes(bytes);
  const found = new Set<string>();
  for (const { node } of nodes) {
    const row = ANNEX_E_BY_TAG.get(node.tag);
    if (!row || node.items || !['PN', 'LO', 'SH', 'LT', 'ST', 'UT', 'UI', 'AE', 'UC'].includes(node.vr)) continue;
    const action = effectiveAction(row, profile, node.vr);
    if (action === 'keep') expect(row.keyword, 'no attribute is kept under these options').toBe('');
    const value = nodeText(source, node);
    if (action === 'clean' && DESCRIPTOR_KEYWORDS.has(row.keyword)) {
      for (const word of value.split(/[^A-Za-z0-9]+/)) {
        // Short numbers occur in any file by chance; words and long numbers are what can identify.
        const searchable = /[A-Za-z]/.test(word) ? word.length >= 3 : word.length >= 6;
        if (searchable && !isDescriptorWord(word)) found.add(word);
      }
      continue;
    }
    for (const part of value.split('\\')) {
      if (part.trim().length >= 6 && !/^(REMOVED|ANONYMI[SZ]ED|ANONYMOUS)$/i.test(part.trim())) found.add(part.trim());
    }
  }
  return [...found];
}

const SHARED_FILES = [
  ...['1', '2', '3', '4', '5', '6', '7', '8', '9'].map((n) => `transfer-syntaxes/dicom/${n}.dcm`),
  'enhanced-mr-small/emri_small.dcm',
  'enhanced-mr-small/emri_small_big_endian.dcm',
  'enhanced-mr-small/emri_small_RLE.dcm',
  'enhanced-mr-small/emri_small_jpeg_2k_lossless.dcm',
  'enhanced-mr-small/emri_small_jpeg_ls_lossless.dcm',
  'siemens-dwi-mosaic/siemens_dwi_0.dcm.gz',
  'siemens-dwi-mosaic/siemens_dwi_1000.dcm.gz',
  'pet-slices/1.dcm',
  'pet-slices/2.dcm',
  'ct-small/CT_small.dcm',
  'ge-t1-ir-spgr/dicom/00001.dcm',
  'philips-dti-b2000/dicom/601_WIP_dti_ax/0016.dcm',
];

describe('deidentifyDicom on the shared data', () => {
  it.each(SHARED_FILES)('%s: de-identifies, pixel data byte for byte, no original identifier left', (path) => {
    // Prepare
    const input = read(path);
    const options = AnonymizationOptionsSchema.parse({});
    // Act
    const result = deidentifyDicom(input, context());
    // Assess
    expect(Buffer.compare(Buffer.from(pixelBytes(result.bytes)), Buffer.from(pixelBytes(input)))).toBe(0);
    const output = latin1(result.bytes);
    const survivors = originalIdentifiers(input, options).filter((value) => output.includes(value));
    expect(survivors).toEqual([]);
    const out = parseDicom(result.bytes).dataSet;
    expect(out.string('x00120062')).toBe('YES');
    expect(out.string('x00020003')).toBe(result.sopInstanceUID);
    expect(out.string('x00080018')).toBe(result.sopInstanceUID);
    expect(result.sopInstanceUID).toMatch(/^2\.25\.\d+$/);
  });

  it('applies every Table E.1-1 row present in the shared files as the profile says', () => {
    const profile = resolveProfile(AnonymizationOptionsSchema.parse({}));
    let checked = 0;
    for (const path of SHARED_FILES) {
      const input = allNodes(read(path));
      const output = allNodes(deidentifyDicom(read(path), context()).bytes);
      const outTop = new Map(
        output.nodes.filter((entry) => entry.depth === 0).map((entry) => [entry.node.tag, entry.node]),
      );
      const top = input.nodes.filter((entry) => entry.depth === 0).map((entry) => entry.node);
      const sopClass = top.find((node) => node.tag === '00080016');
      const iod = iodTypesFor(sopClass ? nodeText(input.source, sopClass) : '');
      for (const node of top) {
        const row = ANNEX_E_BY_TAG.get(node.tag);
        if (!row || node.tag.startsWith('0012')) continue;
        const place = { iod, path: [], tag: node.tag, sequence: node.items !== undefined };
        const action = actionAt(row, profile, node.vr, place);
        const after = outTop.get(node.tag);
        const before = nodeText(input.source, node);
        checked += 1;
        if (action === 'clean' && DESCRIPTOR_KEYWORDS.has(row.keyword) && before && cleanDescription(before))
          expect(nodeText(output.source, after!), row.keyword).toBe(cleanDescription(before));
        else if (action === 'clean' && !['DA', 'DT', 'TM'].includes(node.vr) && !DESCRIPTOR_KEYWORDS.has(row.keyword))
          expect(after && nodeText(output.source, after), `${row.keyword}: free text never kept`).toBeFalsy();
        else if (action === 'remove') expect(after, `${row.keyword} removed`).toBeUndefined();
        else if (action === 'uid' && before) expect(nodeText(output.source, after!), row.keyword).not.toBe(before);
        else if (action === 'keep') expect(nodeText(output.source, after!), row.keyword).toBe(before);
        else if (action === 'empty' && node.tag !== '00100010' && node.tag !== '00100020')
          expect(after!.valueLength, row.keyword).toBe(0);
        else if (action === 'dummy' && before) expect(nodeText(output.source, after!), row.keyword).not.toBe(before);
        else if (action === 'items')
          expect(after!.items, `${row.keyword} keeps its items`).toHaveLength(node.items!.length);
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('replaces UIDs the same way in every file of a study, differently per hospital', () => {
    const first = deidentifyDicom(read('ge-t1-ir-spgr/dicom/00001.dcm'), context());
    const second = deidentifyDicom(read('ge-t1-ir-spgr/dicom/00002.dcm'), context());
    const again = deidentifyDicom(read('ge-t1-ir-spgr/dicom/00001.dcm'), context());
    const elsewhere = deidentifyDicom(read('ge-t1-ir-spgr/dicom/00001.dcm'), context({}, 'lakeview'));
    expect(second.studyInstanceUID).toBe(first.studyInstanceUID);
    expect(second.seriesInstanceUID).toBe(first.seriesInstanceUID);
    expect(second.sopInstanceUID).not.toBe(first.sopInstanceUID);
    expect(again.bytes).toEqual(first.bytes);
    expect(elsewhere.studyInstanceUID).not.toBe(first.studyInstanceUID);
  });

  it('records the profile and option codes of CID 7050', () => {
    const result = deidentifyDicom(read('ct-small/CT_small.dcm'), context({ retainLongitudinalDates: true }));
    const dataSet = parseDicom(result.bytes).dataSet;
    const codes = dataSet.elements.x00120064!.items!.map((item) => [
      item.dataSet!.string('x00080100'),
      item.dataSet!.string('x00080104'),
    ]);
    expect(codes).toEqual([
      ['113100', 'Basic Application Confidentiality Profile'],
      ['113105', 'Clean Descriptors Option'],
      ['113111', 'Retain Safe Private Option'],
      ['113107', 'Retain Longitudinal Temporal Information Modified Dates Option'],
    ]);
    expect(dataSet.string('x00280303')).toBe('MODIFIED');
    expect(DEIDENTIFICATION_PROFILE.edition).toBe('2024b');
  });
});

describe('deidentifyDicom on synthetic files with identifiers planted in every Annex E attribute', () => {
  const encodings = [
    ['explicit little endian', () => buildPlantedDicom('1.2.840.10008.1.2.1', 'A').bytes],
    ['implicit little endian', () => buildPlantedDicom('1.2.840.10008.1.2', 'B').bytes],
    ['explicit big endian', () => buildPlantedDicom('1.2.840.10008.1.2.2', 'C').bytes],
    [
      'deflated explicit little endian',
      () => {
        const path = join(WORK, 'planted-for-deflate.dcm');
        writeFileSync(path, buildPlantedDicom('1.2.840.10008.1.2.1', 'D').bytes);
        return deflatedCopy(path);
      },
    ],
  ] as const;

  it.each(encodings)('%s: no planted identifier survives anywhere in the output bytes', (_, make) => {
    // Prepare
    const salt = {
      'explicit little endian': 'A',
      'implicit little endian': 'B',
      'explicit big endian': 'C',
      'deflated explicit little endian': 'D',
    }[_];
    const planted = buildPlantedDicom(
      _ === 'implicit little endian' ? '1.2.840.10008.1.2' : '1.2.840.10008.1.2.1',
      salt,
    );
    const input = make();
    // Act
    const result = deidentifyDicom(input, context());
    // Assess
    const plainOutput = _.startsWith('deflated')
      ? (() => {
          const parsed = parseDicom(result.bytes);
          expect(parsed.transferSyntaxUID).toBe('1.2.840.10008.1.2.1.99');
          return parsed.bytes;
        })()
      : result.bytes;
    const text = latin1(plainOutput).toUpperCase();
    const survivors = [...planted.identifiers].filter(([, value]) => text.includes(value.toUpperCase()));
    expect(survivors).toEqual([]);
    expect(planted.identifiers.size).toBeGreaterThan(400);
    expect(Buffer.compare(Buffer.from(pixelBytes(result.bytes)), Buffer.from(planted.pixelData))).toBe(0);
    const dataSet = parseDicom(result.bytes).dataSet;
    // Planted dates, times and numbers of non-kept attributes are gone or changed.
    for (const [tag, value] of planted.values) {
      const row = ANNEX_E_BY_TAG.get(tag)!;
      if (effectiveAction(row, resolveProfile(AnonymizationOptionsSchema.parse({})), 'XX') === 'keep') continue;
      const element = dataSet.elements[`x${tag.toLowerCase()}`];
      if (element && element.length > 0 && ['DA', 'TM', 'DT', 'AS', 'IS', 'DS'].includes(element.vr ?? 'DA')) {
        expect(dataSet.string(`x${tag.toLowerCase()}`), row.keyword).not.toBe(value);
      }
    }
    // Clean Descriptors keeps the description's words; Retain Safe Private keeps the Siemens b-value, not ACME.
    expect(dataSet.string('x0008103e')).toBe(planted.safeDescriptorText);
    expect(dataSet.string('x0019100c')).toBe('1000');
    expect(dataSet.string('x00190010')).toBe('SIEMENS MR HEADER');
    expect(dataSet.elements.x00090010).toBeUndefined();
  });

  it('keeps what each option asks to keep', () => {
    const planted = buildPlantedDicom();
    const read = (options: Partial<AnonymizationOptions>) =>
      parseDicom(deidentifyDicom(planted.bytes, context(options)).bytes).dataSet;
    const base = read({});
    expect(read({ retainUids: true }).string('x0020000d')).toBe(planted.identifiers.get('0020000D'));
    expect(read({ retainInstitutionIdentity: true }).string('x00080080')).toContain('ZQA');
    expect(read({ retainPhysicianIdentity: true }).string('x00080090')).toContain('ZQA');
    // keepPrivate keeps the safe list only; every private attribute takes keepAllPrivate; removeAllPrivate, none.
    expect(read({ keepPrivate: true }).elements.x00091001).toBeUndefined();
    expect(read({ keepPrivate: true }).string('x0019100c')).toBe('1000');
    expect(read({ keepAllPrivate: true }).string('x00091001')).toContain('ZQA');
    expect(read({ removeAllPrivate: true }).elements.x0019100c).toBeUndefined();
    expect(read({ removeAllPrivate: true }).elements.x00190010).toBeUndefined();
    expect(read({ retainPatientCharacteristics: true }).string('x00101010')).toBe(planted.values.get('00101010'));
    const shifted = read({ retainLongitudinalDates: true });
    const studyDate = planted.values.get('00080020')!;
    expect(shifted.string('x00080020')).toMatch(/^\d{8}$/);
    expect(shifted.string('x00080020')).not.toBe(studyDate);
    const shift = daysBetween(studyDate, shifted.string('x00080020')!);
    expect(daysBetween(planted.values.get('00080021')!, shifted.string('x00080021')!)).toBe(shift);
    expect(shift).toBeLessThanOrEqual(-365);
    expect(base.string('x00080020') ?? '').toBe('');
  });
});

function daysBetween(a: string, b: string): number {
  const at = (d: string) => Date.UTC(Number(d.slice(0, 4)), Number(d.slice(4, 6)) - 1, Number(d.slice(6, 8)));
  return Math.round((at(b) - at(a)) / 86_400_000);
}

describe('reference tools read the de-identified output', () => {
  it('dcmdump reads every de-identified shared file without an error', () => {
    const dcmdump = requireTool('dcmdump');
    const folder = join(WORK, 'dcmdump');
    mkdirSync(folder, { recursive: true });
    for (const [index, path] of SHARED_FILES.entries()) {
      const out = join(folder, `${index}.dcm`);
      writeFileSync(out, deidentifyDicom(read(path), context()).bytes);
      const run = spawnSync(dcmdump, ['-q', out], { encoding: 'utf8' });
      expect(run.status, `${path}: ${run.stderr}`).toBe(0);
      expect(run.stderr, path).not.toMatch(/^E:/m);
    }
    const planted = join(folder, 'planted.dcm');
    writeFileSync(planted, deidentifyDicom(buildPlantedDicom('1.2.840.10008.1.2.2').bytes, context()).bytes);
    expect(spawnSync(dcmdump, ['-q', planted], { encoding: 'utf8' }).status).toBe(0);
  });

  it('dcm2niix converts the de-identified files of every transfer syntax with the same geometry as the reference', () => {
    const dcm2niix = requireTool('dcm2niix');
    for (const n of ['1', '2', '3', '9']) {
      const folder = join(WORK, `niix-${n}`);
      mkdirSync(folder, { recursive: true });
      const file = join(folder, 'in.dcm');
      writeFileSync(file, deidentifyDicom(read(`transfer-syntaxes/dicom/${n}.dcm`), context()).bytes);
      execFileSync(dcm2niix, ['-s', 'y', '-z', 'n', '-f', 'out', '-o', folder, file], { stdio: 'pipe' });
      const sidecar = JSON.parse(readFileSync(join(folder, 'out.json'), 'utf8')) as Record<string, unknown>;
      const ref = readdirSync(join(DICOM, 'transfer-syntaxes/ref')).find((name) => name.endsWith('.json'))!;
      const reference = JSON.parse(readFileSync(join(DICOM, 'transfer-syntaxes/ref', ref), 'utf8')) as Record<
        string,
        unknown
      >;
      expect(sidecar.SliceTiming).toEqual(reference.SliceTiming);
      expect(sidecar.PhaseEncodingDirection ?? null).toEqual(reference.PhaseEncodingDirection ?? null);
      expect(readFileSync(join(folder, 'out.nii')).length).toBeGreaterThan(64 * 64 * 35 * 2);
    }
  });

  it('the Philips DTI series yields the reference bval/bvec through dcm2niix after de-identification', () => {
    const dcm2niix = requireTool('dcm2niix');
    const source = join(DICOM, 'philips-dti-b2000/dicom/601_WIP_dti_ax');
    const folder = join(WORK, 'philips');
    const out = join(WORK, 'philips-out');
    mkdirSync(folder, { recursive: true });
    mkdirSync(out, { recursive: true });
    for (const path of listFiles(source)) {
      writeFileSync(
        join(folder, path.split('/').pop()!),
        deidentifyDicom(new Uint8Array(readFileSync(path)), context()).bytes,
      );
    }
    execFileSync(dcm2niix, ['-z', 'n', '-f', 'dti', '-o', out, folder], { stdio: 'pipe' });
    const numbers = (text: string) => text.trim().split(/\s+/).map(Number);
    const ref = join(DICOM, 'philips-dti-b2000/ref/WIP_dti_ax_601');
    expect(numbers(readFileSync(join(out, 'dti.bval'), 'utf8'))).toEqual(numbers(readFileSync(`${ref}.bval`, 'utf8')));
    const bvec = numbers(readFileSync(join(out, 'dti.bvec'), 'utf8'));
    const refBvec = numbers(readFileSync(`${ref}.bvec`, 'utf8'));
    expect(bvec.length).toBe(refBvec.length);
    bvec.forEach((value, index) => expect(value).toBeCloseTo(refBvec[index]!, 5));
  });

  it('the Siemens mosaic keeps its CSA header (slice timing, phase-encoding polarity) without the station name in it', () => {
    const dcm2niix = requireTool('dcm2niix');
    const sidecar = (name: string, files: Uint8Array[]) => {
      const folder = join(WORK, `mosaic-${name}`);
      mkdirSync(join(folder, 'in'), { recursive: true });
      files.forEach((bytes, index) => writeFileSync(join(folder, 'in', `${index}.dcm`), bytes));
      execFileSync(dcm2niix, ['-z', 'n', '-f', 'x', '-o', folder, join(folder, 'in')], { stdio: 'pipe' });
      return JSON.parse(readFileSync(join(folder, 'x.json'), 'utf8')) as Record<string, unknown>;
    };
    const inputs = ['siemens_dwi_0.dcm.gz', 'siemens_dwi_1000.dcm.gz'].map((name) =>
      gunzipIfNeeded(read(`siemens-dwi-mosaic/${name}`)),
    );
    const outputs = inputs.map((bytes) => deidentifyDicom(bytes, context()).bytes);
    const before = sidecar('original', inputs);
    const after = sidecar('deidentified', outputs);
    expect(before.StationName).toBeTruthy();
    for (const output of outputs) expect(latin1(output)).not.toContain(String(before.StationName));
    expect(after.SliceTiming).toEqual(before.SliceTiming);
    expect(after.PhaseEncodingDirection).toBe(before.PhaseEncodingDirection);
  });
});
