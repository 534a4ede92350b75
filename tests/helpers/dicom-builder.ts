/**
 * Synthetic DICOM for tests: an encoder for explicit/implicit VR, little/big endian datasets, and a generator that
 * plants a distinct identifier in every attribute of PS3.15 Table E.1-1, inside sequences and in private blocks, so a
 * de-identification test can prove that none survives. Only synthetic values, never real PHI.
 */
import annexE from '#shared/dicom/deidentify/annex-e-2024b.json' with { type: 'json' };
import dictionaryVr from '#shared/dicom/dictionary-vr.json' with { type: 'json' };
import { concatBytes } from '#shared/dicom/bytes.ts';
import { nodeText, readDataSet, readMetaGroup } from '#shared/dicom/deidentify/tokenize.ts';
import { gunzipIfNeeded } from '#shared/dicom/parse.ts';
import { TAG } from '#shared/dicom/tags.ts';

export type BuiltValue = string | number[] | Uint8Array | BuiltElement[][];
export type BuiltElement = {
  tag: string /* GGGGEEEE, upper-case hex */;
  vr: string;
  value: BuiltValue;
  undefinedLength?: boolean;
};
export type Encoding = { explicit: boolean; littleEndian: boolean };

export const SYNTAX_ENCODING: Record<string, Encoding> = {
  '1.2.840.10008.1.2': { explicit: false, littleEndian: true },
  '1.2.840.10008.1.2.1': { explicit: true, littleEndian: true },
  '1.2.840.10008.1.2.2': { explicit: true, littleEndian: false },
  // JPEG baseline: the data set is explicit VR little endian, the pixel data encapsulated (PS3.5 A.4), which a test
  // appends itself.
  '1.2.840.10008.1.2.4.50': { explicit: true, littleEndian: true },
};

const LONG_VRS = new Set(['OB', 'OD', 'OF', 'OL', 'OV', 'OW', 'SQ', 'SV', 'UC', 'UN', 'UR', 'UT', 'UV']);
const NUMERIC: Record<string, [number, (view: DataView, offset: number, value: number, little: boolean) => void]> = {
  US: [2, (v, o, x, l) => v.setUint16(o, x, l)],
  SS: [2, (v, o, x, l) => v.setInt16(o, x, l)],
  UL: [4, (v, o, x, l) => v.setUint32(o, x, l)],
  SL: [4, (v, o, x, l) => v.setInt32(o, x, l)],
  FL: [4, (v, o, x, l) => v.setFloat32(o, x, l)],
  FD: [8, (v, o, x, l) => v.setFloat64(o, x, l)],
  AT: [4, (v, o, x, l) => v.setUint32(o, x, l)],
};

const VR_DICTIONARY = dictionaryVr as Record<string, string>;

export function vrOf(tag: string): string {
  const vr = VR_DICTIONARY[tag.toUpperCase()] ?? 'UN';
  return vr === 'ox' || vr === 'xs' ? (vr === 'ox' ? 'OW' : 'US') : vr;
}

function valueBytes(element: BuiltElement, encoding: Encoding): Uint8Array {
  const { vr, value } = element;
  if (vr === 'SQ') {
    const items = (value as BuiltElement[][]).map((item) => {
      const body = encodeDataSet(item, encoding);
      return concatBytes([header(0xfffe, 0xe000, undefined, body.length, encoding, true), body]);
    });
    const body = concatBytes(items);
    return element.undefinedLength ? concatBytes([body, header(0xfffe, 0xe0dd, undefined, 0, encoding, true)]) : body;
  }
  if (value instanceof Uint8Array) return value.length % 2 ? concatBytes([value, new Uint8Array(1)]) : value;
  if (Array.isArray(value)) {
    const spec = NUMERIC[vr];
    if (!spec) throw new Error(`numeric value given for VR ${vr}`);
    const out = new Uint8Array(spec[0] * value.length);
    const view = new DataView(out.buffer);
    (value as number[]).forEach((number, index) => spec[1](view, index * spec[0], number, encoding.littleEndian));
    return out;
  }
  const text = new TextEncoder().encode(value);
  if (text.length % 2 === 0) return text;
  return concatBytes([text, new Uint8Array([vr === 'UI' || vr === 'OB' ? 0 : 0x20])]);
}

function header(
  group: number,
  element: number,
  vr: string | undefined,
  length: number,
  encoding: Encoding,
  isItem = false,
): Uint8Array {
  const little = encoding.littleEndian;
  if (isItem || !encoding.explicit || vr === undefined) {
    const out = new Uint8Array(8);
    const view = new DataView(out.buffer);
    view.setUint16(0, group, little);
    view.setUint16(2, element, little);
    view.setUint32(4, length, little);
    return out;
  }
  const long = LONG_VRS.has(vr);
  const out = new Uint8Array(long ? 12 : 8);
  const view = new DataView(out.buffer);
  view.setUint16(0, group, little);
  view.setUint16(2, element, little);
  out[4] = vr.charCodeAt(0);
  out[5] = vr.charCodeAt(1);
  if (long) view.setUint32(8, length, little);
  else view.setUint16(6, length, little);
  return out;
}

/** Encodes elements (sorted by tag here) in the given encoding. */
export function encodeDataSet(elements: BuiltElement[], encoding: Encoding): Uint8Array {
  const sorted = [...elements].sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  return concatBytes(
    sorted.flatMap((element) => {
      const body = valueBytes(element, encoding);
      const group = Number.parseInt(element.tag.slice(0, 4), 16);
      const number = Number.parseInt(element.tag.slice(4), 16);
      const length = element.vr === 'SQ' && element.undefinedLength ? 0xffffffff : body.length;
      return [header(group, number, element.vr, length, encoding), body];
    }),
  );
}

/** A Part 10 file: preamble, DICM, meta group (explicit little endian, with its group length), dataset. */
export function encodePart10(
  elements: BuiltElement[],
  transferSyntaxUID: string,
  meta: BuiltElement[] = [],
): Uint8Array {
  const encoding = SYNTAX_ENCODING[transferSyntaxUID];
  if (!encoding) throw new Error(`builder cannot encode ${transferSyntaxUID}`);
  const sopClass = elements.find((element) => element.tag === '00080016')?.value as string | undefined;
  const sopInstance = elements.find((element) => element.tag === '00080018')?.value as string | undefined;
  const metaElements: BuiltElement[] = [
    { tag: '00020001', vr: 'OB', value: new Uint8Array([0, 1]) },
    { tag: '00020002', vr: 'UI', value: sopClass ?? '1.2.840.10008.5.1.4.1.1.4' },
    { tag: '00020003', vr: 'UI', value: sopInstance ?? '1.2.826.0.1.3680043.9.9999.1' },
    { tag: '00020010', vr: 'UI', value: transferSyntaxUID },
    { tag: '00020012', vr: 'UI', value: '1.2.826.0.1.3680043.9.9999.0' },
    { tag: '00020013', vr: 'SH', value: 'IWS_TEST' },
    ...meta,
  ];
  const explicitLittle = { explicit: true, littleEndian: true };
  const metaBody = encodeDataSet(metaElements, explicitLittle);
  const groupLength = encodeDataSet([{ tag: '00020000', vr: 'UL', value: [metaBody.length] }], explicitLittle);
  const prefix = new Uint8Array(132);
  prefix.set([0x44, 0x49, 0x43, 0x4d], 128);
  return concatBytes([prefix, groupLength, metaBody, encodeDataSet(elements, encoding)]);
}

/** 8x8 16-bit monochrome pixels with a recognisable ramp. */
export function rampPixels(rows = 8, columns = 8): Uint8Array {
  const out = new Uint8Array(rows * columns * 2);
  for (let i = 0; i < rows * columns; i++) out[i * 2] = i & 0xff;
  return out;
}

/** A small valid MR image. `omit` drops attributes by keyword; `extra` adds or replaces elements. */
export function baseElements(): BuiltElement[] {
  return [
    { tag: '00080008', vr: 'CS', value: 'ORIGINAL\\PRIMARY\\M\\ND' },
    { tag: '00080016', vr: 'UI', value: '1.2.840.10008.5.1.4.1.1.4' },
    { tag: '00080018', vr: 'UI', value: '1.2.826.0.1.3680043.9.9999.1.1' },
    { tag: '00080060', vr: 'CS', value: 'MR' },
    { tag: '00080070', vr: 'LO', value: 'ACME' },
    { tag: '0008103E', vr: 'LO', value: 'T1 MPRAGE' },
    { tag: '00081030', vr: 'LO', value: 'Brain' },
    { tag: '00100010', vr: 'PN', value: 'Test^Synthetic' },
    { tag: '00100020', vr: 'LO', value: 'SYNTH-0001' },
    { tag: '0020000D', vr: 'UI', value: '1.2.826.0.1.3680043.9.9999.2' },
    { tag: '0020000E', vr: 'UI', value: '1.2.826.0.1.3680043.9.9999.3' },
    { tag: '00200011', vr: 'IS', value: '3' },
    { tag: '00200013', vr: 'IS', value: '1' },
    { tag: '00200032', vr: 'DS', value: '0\\0\\0' },
    { tag: '00200037', vr: 'DS', value: '1\\0\\0\\0\\1\\0' },
    { tag: '00280002', vr: 'US', value: [1] },
    { tag: '00280004', vr: 'CS', value: 'MONOCHROME2' },
    { tag: '00280010', vr: 'US', value: [8] },
    { tag: '00280011', vr: 'US', value: [8] },
    { tag: '00280030', vr: 'DS', value: '1\\1' },
    { tag: '00280100', vr: 'US', value: [16] },
    { tag: '00280101', vr: 'US', value: [16] },
    { tag: '00280102', vr: 'US', value: [15] },
    { tag: '00280103', vr: 'US', value: [0] },
    { tag: '7FE00010', vr: 'OW', value: rampPixels() },
  ];
}

const KEYWORD_TO_TAG = new Map(
  (annexE as unknown as { attributes: { tag: string; keyword: string }[] }).attributes.map((row) => [
    row.keyword,
    row.tag.replace(/[(),]/g, ''),
  ]),
);
const BASE_KEYWORDS: Record<string, string> = {
  SeriesInstanceUID: '0020000E',
  StudyInstanceUID: '0020000D',
  SeriesDescription: '0008103E',
  Modality: '00080060',
  SeriesNumber: '00200011',
  InstanceNumber: '00200013',
  PatientName: '00100010',
  StudyDescription: '00081030',
  PatientID: '00100020',
};

export function buildDicom(
  options: { omit?: string[]; extra?: BuiltElement[]; transferSyntaxUID?: string } = {},
): Uint8Array {
  const omitted = new Set(
    (options.omit ?? []).map((keyword) => BASE_KEYWORDS[keyword] ?? KEYWORD_TO_TAG.get(keyword) ?? keyword),
  );
  const extraTags = new Set((options.extra ?? []).map((element) => element.tag));
  const elements = baseElements().filter((element) => !omitted.has(element.tag) && !extraTags.has(element.tag));
  return encodePart10([...elements, ...(options.extra ?? [])], options.transferSyntaxUID ?? '1.2.840.10008.1.2.1');
}

export type AnnexRow = { tag: string; keyword: string; name: string; action: string; options: Record<string, string> };
export const ANNEX_E_ROWS = (annexE as unknown as { attributes: AnnexRow[] }).attributes;

export type PlantedFile = {
  bytes: Uint8Array;
  /** Planted identifier text per tag (GGGGEEEE); none may appear anywhere in the de-identified bytes. */
  identifiers: Map<string, string>;
  /** Planted non-text values (dates, times, numbers) per tag, compared by value after de-identification. */
  values: Map<string, string>;
  pixelData: Uint8Array;
  /** Text planted in descriptor attributes that the Clean Descriptors option must keep. */
  safeDescriptorText: string;
};

function token(index: number, salt: string): string {
  return `ZQ${salt}${index.toString(36).toUpperCase().padStart(3, '0')}`;
}

function plantedValue(vr: string, index: number, salt: string, patientToken: string): BuiltValue | undefined {
  const id = token(index, salt);
  switch (vr) {
    case 'PN':
      return `${id}^${patientToken}`;
    case 'AE':
    case 'SH':
    case 'CS':
      return id;
    case 'LO':
    case 'LT':
    case 'ST':
    case 'UT':
    case 'UC':
      return `${id} ${patientToken}`;
    case 'UR':
      return `http://${id.toLowerCase()}.example`;
    case 'UI':
      return `1.2.826.0.1.3680043.9.${salt.charCodeAt(0)}.${7000 + index}`;
    case 'DA':
      return `19${String(10 + (index % 80)).padStart(2, '0')}0${1 + (index % 9)}${String(10 + (index % 18))}`;
    case 'TM':
      return `${String(index % 24).padStart(2, '0')}1${index % 10}07.123`;
    case 'DT':
      return `19${String(10 + (index % 80)).padStart(2, '0')}0311${String(index % 24).padStart(2, '0')}3000`;
    case 'AS':
      return `0${String(index % 90).padStart(2, '0')}Y`;
    case 'IS':
      return String(7000 + index);
    case 'DS':
      return `${7000 + index}.5`;
    case 'US':
    case 'SS':
      return [7000 + index];
    case 'UL':
    case 'SL':
    case 'FL':
    case 'FD':
      return [700000 + index];
    case 'AT':
      return [0x00100010];
    case 'OB':
    case 'OW':
    case 'UN':
      return new TextEncoder().encode(`${id} `);
    default:
      return undefined;
  }
}

/**
 * A file with an identifier planted in every attribute of Table E.1-1 that the dictionary can encode (repeating
 * groups 50xx/60xx as group 5000/6000), in a nested sequence, and in private blocks (one safe-private, one not).
 */
export function buildPlantedDicom(transferSyntaxUID = '1.2.840.10008.1.2.1', salt = 'A'): PlantedFile {
  const identifiers = new Map<string, string>();
  const values = new Map<string, string>();
  const patientToken = `${token(999, salt)}PAT`;
  const elements = new Map<string, BuiltElement>();
  for (const element of baseElements()) elements.set(element.tag, element);
  const safeDescriptorText = 'T1 MPRAGE SAG';
  ANNEX_E_ROWS.forEach((row, index) => {
    const tag = row.tag
      .replace(/[(),]/g, '')
      .toUpperCase()
      .replace(/^(50|60)XX/, '$100')
      .replace(/XXXX$/, '3000');
    if (tag.startsWith('0000') || tag.startsWith('0002') || !/^[0-9A-F]{8}$/.test(tag)) return;
    const vr = vrOf(tag);
    if (tag === '00100010') {
      elements.set(tag, { tag, vr, value: `${patientToken}^Given${salt}` });
      identifiers.set(tag, patientToken);
      return;
    }
    if (vr === 'SQ') {
      const inner = token(index, salt);
      elements.set(tag, {
        tag,
        vr,
        undefinedLength: index % 2 === 0,
        value: [
          [
            { tag: '00100010', vr: 'PN', value: `${inner}^${patientToken}` },
            { tag: '00081155', vr: 'UI', value: `1.2.826.0.1.3680043.9.${salt.charCodeAt(0)}.${90000 + index}` },
            { tag: '00080080', vr: 'LO', value: `${inner}INST` },
          ],
        ],
      });
      identifiers.set(tag, inner);
      return;
    }
    const value = plantedValue(vr, index, salt, patientToken);
    if (value === undefined) return;
    if (row.options.descriptions === 'C' && ['LO', 'LT', 'ST', 'UT', 'SH', 'UC'].includes(vr)) {
      elements.set(tag, {
        tag,
        vr,
        value: vr === 'SH' ? `${patientToken.slice(0, 9)} T1` : `${safeDescriptorText} ${patientToken}`,
      });
      identifiers.set(tag, vr === 'SH' ? patientToken.slice(0, 9) : patientToken);
      return;
    }
    elements.set(tag, { tag, vr, value });
    if (typeof value === 'string' && /^[A-Z]{2}|^http/.test(value) && vr !== 'UI')
      identifiers.set(tag, value.split(/[ ^]/)[0]!);
    else if (vr === 'UI') identifiers.set(tag, value as string);
    else if (value instanceof Uint8Array) identifiers.set(tag, token(index, salt));
    else values.set(tag, Array.isArray(value) ? value.join('\\') : String(value));
  });
  // A nested identifier two sequence levels down, and private blocks: ACME (never safe) and Siemens (one safe tag).
  elements.set('00081115', {
    tag: '00081115',
    vr: 'SQ',
    value: [
      [
        { tag: '00081140', vr: 'SQ', value: [[{ tag: '00100020', vr: 'LO', value: `${token(1001, salt)}` }]] },
        { tag: '0020000E', vr: 'UI', value: `1.2.826.0.1.3680043.9.${salt.charCodeAt(0)}.99999` },
      ],
    ],
  });
  identifiers.set('00081115', token(1001, salt));
  identifiers.set('0020000E-nested', `1.2.826.0.1.3680043.9.${salt.charCodeAt(0)}.99999`);
  elements.set('00090010', { tag: '00090010', vr: 'LO', value: 'ACME PRIVATE' });
  elements.set('00091001', { tag: '00091001', vr: 'LO', value: `${token(1002, salt)}` });
  elements.set('00091002', {
    tag: '00091002',
    vr: 'SQ',
    value: [[{ tag: '00100010', vr: 'PN', value: `${token(1003, salt)}` }]],
  });
  identifiers.set('00091001', token(1002, salt));
  identifiers.set('00091002', token(1003, salt));
  elements.set('00190010', { tag: '00190010', vr: 'LO', value: 'SIEMENS MR HEADER' });
  elements.set('0019100C', { tag: '0019100C', vr: 'IS', value: '1000' });
  elements.set('00191099', { tag: '00191099', vr: 'LO', value: `${token(1004, salt)}` });
  identifiers.set('00191099', token(1004, salt));
  elements.set('00080016', { tag: '00080016', vr: 'UI', value: '1.2.840.10008.5.1.4.1.1.4' });
  const pixelData = rampPixels();
  elements.set('7FE00010', { tag: '7FE00010', vr: 'OW', value: pixelData });
  const meta: BuiltElement[] = [
    { tag: '00020016', vr: 'AE', value: token(1005, salt) },
    { tag: '00020100', vr: 'UI', value: `1.2.826.0.1.3680043.9.${salt.charCodeAt(0)}.88888` },
    { tag: '00020102', vr: 'OB', value: new TextEncoder().encode(token(1006, salt)) },
  ];
  identifiers.set('00020016', token(1005, salt));
  identifiers.set('00020102', token(1006, salt));
  const bytes = encodePart10([...elements.values()], transferSyntaxUID, meta);
  return { bytes, identifiers, values, pixelData, safeDescriptorText };
}

/** One slice series of a generated study: what a test plants in its headers, and how many slices it has. */
export type GeneratedSeries = {
  seriesNumber: number;
  slices?: number;
  seriesDescription?: string;
  protocolName?: string;
  imageType?: string;
  sopClassUID?: string;
  burnedInAnnotation?: 'YES' | 'NO';
};

/**
 * A small MR study: per series, `slices` 8x8 slices stacked 1 mm apart, each a file named `<prefix><n>.dcm`. UIDs are
 * made from the series number under `study.root`, so two calls give the same study (another root, another study);
 * `study.studyDate` replaces the file's StudyDate.
 */
export function buildStudy(
  series: GeneratedSeries[],
  filePrefix = 'slice',
  study: { root?: string; studyDate?: string } = {},
): { name: string; bytes: Uint8Array }[] {
  const root = study.root ?? '1.2.826.0.1.3680043.9.9999';
  return series.flatMap((s) =>
    Array.from({ length: s.slices ?? 8 }, (_, i) => {
      const extra: BuiltElement[] = [
        { tag: '00080018', vr: 'UI', value: `${root}.${s.seriesNumber}.${i + 1}` },
        { tag: '0020000D', vr: 'UI', value: `${root}.2` },
        { tag: '0020000E', vr: 'UI', value: `${root}.3.${s.seriesNumber}` },
        { tag: '00200011', vr: 'IS', value: String(s.seriesNumber) },
        { tag: '00200013', vr: 'IS', value: String(i + 1) },
        { tag: '00200032', vr: 'DS', value: `0\\0\\${i}` },
        { tag: '00201041', vr: 'DS', value: String(i) },
        { tag: '00180050', vr: 'DS', value: '1' },
        { tag: '7FE00010', vr: 'OW', value: rampPixels() },
      ];
      if (study.studyDate !== undefined) extra.push({ tag: '00080020', vr: 'DA', value: study.studyDate });
      if (s.seriesDescription !== undefined) extra.push({ tag: '0008103E', vr: 'LO', value: s.seriesDescription });
      if (s.protocolName !== undefined) extra.push({ tag: '00181030', vr: 'LO', value: s.protocolName });
      if (s.imageType !== undefined) extra.push({ tag: '00080008', vr: 'CS', value: s.imageType });
      if (s.sopClassUID !== undefined) extra.push({ tag: '00080016', vr: 'UI', value: s.sopClassUID });
      if (s.burnedInAnnotation !== undefined) extra.push({ tag: '00280301', vr: 'CS', value: s.burnedInAnnotation });
      return { name: `${filePrefix}${s.seriesNumber}-${i + 1}.dcm`, bytes: buildDicom({ extra }) };
    }),
  );
}

/**
 * A real file with elements added or replaced at the top level, in its own transfer syntax (gzip input is written
 * plain; the meta group and every other element are copied byte for byte). Not for the deflated syntax.
 */
export function withElements(file: Uint8Array, extra: BuiltElement[]): Uint8Array {
  const plain = gunzipIfNeeded(file);
  const meta = readMetaGroup(plain, 132);
  const syntaxNode = meta.elements.find((node) => node.tag === TAG.TransferSyntaxUID);
  const syntax = syntaxNode ? nodeText(plain, syntaxNode) : '1.2.840.10008.1.2.1';
  const encoding = SYNTAX_ENCODING[syntax] ?? { explicit: true, littleEndian: true };
  const replaced = new Set(extra.map((element) => element.tag));
  const parts: { tag: string; bytes: Uint8Array }[] = readDataSet(plain, meta.next, encoding)
    .elements.filter((node) => !replaced.has(node.tag))
    .map((node) => ({ tag: node.tag, bytes: plain.subarray(node.start, node.end) }));
  for (const element of extra) parts.push({ tag: element.tag, bytes: encodeDataSet([element], encoding) });
  parts.sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  return concatBytes([plain.subarray(0, meta.next), ...parts.map((part) => part.bytes)]);
}
