import { readDataSet, readMetaGroup, type DicomNode, type Encoding } from './deidentify/tokenize.ts';
import { inflateBounded } from './limits.ts';
import { hasDicmPrefix, TRANSFER_SYNTAX } from './parse.ts';
import { TAG } from './tags.ts';

/**
 * The DICOM JSON model (PS3.18 Annex F.2) of a PS3.10 file: `{ "GGGGEEEE": { vr, Value } }`, sequences as nested
 * objects, person names as `{ Alphabetic }`. Bulk data (binary VRs) is left out unless `bulkDataUri` is given: QIDO-RS
 * results carry attributes only. WADO-RS metadata gives it (PS3.18 F.2.6): the Pixel Data, and a top-level binary value
 * over BULK_DATA_THRESHOLD bytes, as a BulkDataURI; a smaller one, or one inside a sequence, as InlineBinary (base64).
 */
export const BULK_DATA_THRESHOLD = 1024;

/** Where a top-level attribute's bulk data is retrieved (the instance's …/bulkdata/{tag}). */
export type BulkDataUris = (tag: string) => string;
export type DicomJsonAttribute = { vr: string; Value?: unknown[]; BulkDataURI?: string; InlineBinary?: string };
export type DicomJsonDataset = Record<string, DicomJsonAttribute>;

const BINARY_VRS = new Set(['OB', 'OD', 'OF', 'OL', 'OV', 'OW', 'UN']);
const SINGLE_VALUE_TEXT = new Set(['LT', 'ST', 'UT', 'UR']);
const NUMBER_SIZE: Record<string, number> = { US: 2, SS: 2, UL: 4, SL: 4, FL: 4, FD: 8, AT: 4, SV: 8, UV: 8 };

function latin1(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i++) text += String.fromCharCode(bytes[i]!);
  return text;
}

function numbers(view: DataView, node: DicomNode, littleEndian: boolean): unknown[] {
  const size = NUMBER_SIZE[node.vr]!;
  const values: unknown[] = [];
  for (let at = node.valueStart; at + size <= node.valueStart + node.valueLength; at += size) {
    switch (node.vr) {
      case 'US':
        values.push(view.getUint16(at, littleEndian));
        break;
      case 'SS':
        values.push(view.getInt16(at, littleEndian));
        break;
      case 'UL':
        values.push(view.getUint32(at, littleEndian));
        break;
      case 'SL':
        values.push(view.getInt32(at, littleEndian));
        break;
      case 'FL':
        values.push(view.getFloat32(at, littleEndian));
        break;
      case 'FD':
        values.push(view.getFloat64(at, littleEndian));
        break;
      case 'SV':
        values.push(Number(view.getBigInt64(at, littleEndian)));
        break;
      case 'UV':
        values.push(Number(view.getBigUint64(at, littleEndian)));
        break;
      case 'AT': {
        const group = view.getUint16(at, littleEndian);
        const element = view.getUint16(at + 2, littleEndian);
        values.push(((group << 16) | element).toString(16).toUpperCase().padStart(8, '0'));
        break;
      }
    }
  }
  return values;
}

function binary(bytes: Uint8Array, node: DicomNode, bulk: BulkOutput | undefined): DicomJsonAttribute {
  const { vr } = node;
  if (!bulk) return { vr };
  if (bulk.uris && (node.tag === TAG.PixelData || node.undefinedLength || node.valueLength > BULK_DATA_THRESHOLD))
    return { vr, BulkDataURI: bulk.uris(node.tag) };
  if (node.undefinedLength || node.valueLength === 0) return { vr };
  const value = bytes.subarray(node.valueStart, node.valueStart + node.valueLength);
  return { vr, InlineBinary: btoa(latin1(value)) };
}

/** How binary values are given: undefined leaves them out; `uris` names top-level bulk data, else inline (F.2.6-7). */
type BulkOutput = { uris?: BulkDataUris };

function attribute(
  bytes: Uint8Array,
  view: DataView,
  node: DicomNode,
  encoding: Encoding,
  bulk: BulkOutput | undefined,
): DicomJsonAttribute {
  const vr = node.vr;
  if (vr === 'SQ' || node.items) {
    const itemEncoding = node.itemEncoding ?? encoding;
    // Inside a sequence a value is always inline: a BulkDataURI names a top-level attribute of the instance.
    const nested = bulk ? {} : undefined;
    const items = (node.items ?? []).map((item) => encodeNodes(bytes, view, item.elements, itemEncoding, nested));
    return items.length > 0 ? { vr: 'SQ', Value: items } : { vr: 'SQ' };
  }
  if (BINARY_VRS.has(vr) || node.undefinedLength) return binary(bytes, node, bulk);
  if (NUMBER_SIZE[vr]) {
    const values = numbers(view, node, encoding.littleEndian);
    return values.length > 0 ? { vr, Value: values } : { vr };
  }
  let text = latin1(bytes.subarray(node.valueStart, node.valueStart + node.valueLength));
  text = text.replace(/[\0 ]+$/, '');
  if (text === '') return { vr };
  const parts = SINGLE_VALUE_TEXT.has(vr) ? [text] : text.split('\\').map((v) => v.trim());
  if (vr === 'PN') return { vr, Value: parts.map((name) => (name ? { Alphabetic: name } : {})) };
  if (vr === 'IS' || vr === 'DS')
    return {
      vr,
      Value: parts.map((v) => (v === '' ? null : Number(v))).filter((v) => v === null || Number.isFinite(v)),
    };
  return { vr, Value: parts.map((v) => (v === '' ? null : v)) };
}

function encodeNodes(
  bytes: Uint8Array,
  view: DataView,
  nodes: DicomNode[],
  encoding: Encoding,
  bulk: BulkOutput | undefined,
): DicomJsonDataset {
  const out: DicomJsonDataset = {};
  for (const node of nodes) {
    // Group lengths are retired (PS3.5 7.2).
    if (node.element === 0) continue;
    out[node.tag] = attribute(bytes, view, node, encoding, bulk);
  }
  return out;
}

function encodingOf(transferSyntaxUID: string): Encoding {
  if (transferSyntaxUID === TRANSFER_SYNTAX.implicitLittle) return { explicit: false, littleEndian: true };
  if (transferSyntaxUID === TRANSFER_SYNTAX.explicitBig) return { explicit: true, littleEndian: false };
  return { explicit: true, littleEndian: true };
}

/** The Transfer Syntax UID (0002,0010) of a PS3.10 file's meta group; explicit VR little endian when it names none. */
export function transferSyntaxOf(file: Uint8Array): string {
  if (!hasDicmPrefix(file)) throw new Error('Not a PS3.10 file');
  const meta = readMetaGroup(file, 132);
  const syntaxNode = meta.elements.find((n) => n.tag === TAG.TransferSyntaxUID);
  return syntaxNode
    ? latin1(file.subarray(syntaxNode.valueStart, syntaxNode.end)).replace(/[\0 ]+$/, '')
    : TRANSFER_SYNTAX.explicitLittle;
}

/** The DICOM JSON of a PS3.10 file (with its preamble and meta group, as the pipeline writes its de-identified copies). */
export function toDicomJson(file: Uint8Array, bulkDataUris?: BulkDataUris): DicomJsonDataset {
  if (!hasDicmPrefix(file)) throw new Error('Not a PS3.10 file');
  const meta = readMetaGroup(file, 132);
  const transferSyntaxUID = transferSyntaxOf(file);
  let source = file;
  let start = meta.next;
  if (transferSyntaxUID === TRANSFER_SYNTAX.deflatedExplicitLittle) {
    source = inflateBounded(file.subarray(start), true);
    start = 0;
  }
  const encoding = encodingOf(transferSyntaxUID);
  const { elements } = readDataSet(source, start, encoding);
  const view = new DataView(source.buffer, source.byteOffset, source.byteLength);
  return encodeNodes(source, view, elements, encoding, bulkDataUris ? { uris: bulkDataUris } : undefined);
}

/** The first value of an attribute as text ('' when absent); a person name gives its alphabetic form. */
export function jsonText(dataset: DicomJsonDataset, tag: string): string {
  const value = dataset[tag]?.Value?.[0];
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return String((value as { Alphabetic?: string }).Alphabetic ?? '');
  return String(value);
}
