import dictionaryVr from '#shared/dicom/dictionary-vr.json' with { type: 'json' };
import { DicomLimitError, DicomParseError } from '#shared/dicom/errors.ts';
import { ReadBudget } from '#shared/dicom/limits.ts';

/**
 * A byte-exact view of a dataset: every element with the offsets of its header and value, sequences down to their
 * items, encapsulated pixel data as one opaque range. The de-identifier rewrites from this view, copying every byte
 * it keeps (pixel data included) unchanged, whatever the transfer syntax.
 */
export type Encoding = { explicit: boolean; littleEndian: boolean };

export type DicomNode = {
  group: number;
  element: number;
  /** GGGGEEEE, upper-case hex. */
  tag: string;
  vr: string;
  start: number;
  valueStart: number;
  valueLength: number;
  end: number;
  undefinedLength: boolean;
  /** Set for sequences (and CP-246 UN sequences); items are read with `itemEncoding`. */
  items?: DicomItem[];
  itemEncoding?: Encoding;
};

export type DicomItem = { start: number; end: number; undefinedLength: boolean; elements: DicomNode[] };

const LONG_VRS = new Set(['OB', 'OD', 'OF', 'OL', 'OV', 'OW', 'SQ', 'SV', 'UC', 'UN', 'UR', 'UT', 'UV']);
const UNDEFINED = 0xffffffff;
const VR_DICTIONARY = dictionaryVr as Record<string, string>;
const IMPLICIT_LITTLE: Encoding = { explicit: false, littleEndian: true };

export function isLongVr(vr: string): boolean {
  return LONG_VRS.has(vr);
}

export function tagKey(group: number, element: number): string {
  return ((group << 16) | element).toString(16).toUpperCase().padStart(8, '0').slice(-8);
}

/** VR of a standard tag from the data dictionary (implicit VR files carry none). Private creators are LO. */
export function dictionaryVrOf(group: number, element: number): string {
  if (group % 2 === 1) return element >= 0x10 && element <= 0xff ? 'LO' : 'UN';
  if (element === 0) return 'UL';
  const vr =
    VR_DICTIONARY[tagKey(group, element)] ??
    (group >= 0x6000 && group <= 0x60ff ? VR_DICTIONARY[tagKey(0x6000, element)] : undefined);
  if (vr === 'ox') return 'OW';
  if (vr === 'xs') return 'US';
  return vr ?? 'UN';
}

function fail(): never {
  throw new DicomParseError('DICOM parsing failed');
}

class Reader {
  readonly view: DataView;
  /** Element count and nesting are bounded (shared/dicom/limits.ts) so a crafted file cannot stall the reader. */
  readonly budget = new ReadBudget();
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  u16(offset: number, little: boolean): number {
    if (offset + 2 > this.bytes.length) fail();
    return this.view.getUint16(offset, little);
  }
  u32(offset: number, little: boolean): number {
    if (offset + 4 > this.bytes.length) fail();
    return this.view.getUint32(offset, little);
  }
}

function isVrChars(a: number | undefined, b: number | undefined): boolean {
  return a !== undefined && b !== undefined && a >= 0x41 && a <= 0x5a && b >= 0x41 && b <= 0x5a;
}

/** Walks an encapsulated (undefined length) value: items until the sequence delimiter. Returns the offset after it. */
function skipEncapsulated(reader: Reader, offset: number, little: boolean): number {
  let position = offset;
  for (;;) {
    const group = reader.u16(position, little);
    const element = reader.u16(position + 2, little);
    const length = reader.u32(position + 4, little);
    if (group !== 0xfffe) fail();
    if (element === 0xe0dd) return position + 8;
    if (element !== 0xe000 || length === UNDEFINED) fail();
    position += 8 + length;
    if (position > reader.bytes.length) fail();
  }
}

function readItems(
  reader: Reader,
  offset: number,
  end: number | undefined,
  encoding: Encoding,
  depth: number,
): { items: DicomItem[]; next: number } {
  reader.budget.depth(depth);
  const little = encoding.littleEndian;
  const items: DicomItem[] = [];
  let position = offset;
  for (;;) {
    if (end !== undefined && position >= end) return { items, next: position };
    const group = reader.u16(position, little);
    const element = reader.u16(position + 2, little);
    const length = reader.u32(position + 4, little);
    if (group !== 0xfffe) fail();
    if (element === 0xe0dd) {
      if (end !== undefined) fail();
      return { items, next: position + 8 };
    }
    if (element !== 0xe000) fail();
    if (length === UNDEFINED) {
      const read = readElements(reader, position + 8, undefined, encoding, 'item', depth);
      items.push({ start: position, end: read.next, undefinedLength: true, elements: read.elements });
      position = read.next;
    } else {
      const itemEnd = position + 8 + length;
      if (itemEnd > reader.bytes.length || (end !== undefined && itemEnd > end)) fail();
      const read = readElements(reader, position + 8, itemEnd, encoding, 'item', depth);
      items.push({ start: position, end: itemEnd, undefinedLength: false, elements: read.elements });
      position = itemEnd;
    }
  }
}

function startsWithItem(reader: Reader, offset: number, length: number, little: boolean): boolean {
  return (
    length >= 8 &&
    offset + 8 <= reader.bytes.length &&
    reader.u16(offset, little) === 0xfffe &&
    reader.u16(offset + 2, little) === 0xe000
  );
}

/**
 * Reads elements from `offset` up to `end` (or, inside an undefined-length item, up to its delimiter).
 * At the top level, bytes that cannot start an element once pixel data has been read are trailing bytes:
 * `next` stops before them and they are not part of the dataset.
 */
export function readElements(
  reader: Reader,
  offset: number,
  end: number | undefined,
  encoding: Encoding,
  context: 'top' | 'item',
  depth = 0,
): { elements: DicomNode[]; next: number } {
  const little = encoding.littleEndian;
  const limit = end ?? reader.bytes.length;
  const elements: DicomNode[] = [];
  let position = offset;
  let sawPixelData = false;
  while (position < limit) {
    if (context === 'top' && limit - position < 8) {
      if (sawPixelData || elements.length > 0) return { elements, next: position };
      fail();
    }
    try {
      const group = reader.u16(position, little);
      const element = reader.u16(position + 2, little);
      reader.budget.element();
      if (group === 0xfffe && element === 0xe00d) {
        if (context !== 'item' || end !== undefined) fail();
        return { elements, next: position + 8 };
      }
      let vr: string;
      let length: number;
      let valueStart: number;
      if (encoding.explicit && !(group === 0xfffe)) {
        const a = reader.bytes[position + 4];
        const b = reader.bytes[position + 5];
        if (!isVrChars(a, b)) fail();
        vr = String.fromCharCode(a!, b!);
        if (LONG_VRS.has(vr)) {
          length = reader.u32(position + 8, little);
          valueStart = position + 12;
        } else {
          length = reader.u16(position + 6, little);
          valueStart = position + 8;
        }
      } else {
        vr = dictionaryVrOf(group, element);
        length = reader.u32(position + 4, little);
        valueStart = position + 8;
      }
      const node: DicomNode = {
        group,
        element,
        tag: tagKey(group, element),
        vr,
        start: position,
        valueStart,
        valueLength: 0,
        end: 0,
        undefinedLength: length === UNDEFINED,
      };
      if (length === UNDEFINED) {
        const isPixelLike =
          (group === 0x7fe0 && element === 0x0010) || (encoding.explicit && (vr === 'OB' || vr === 'OW'));
        if (isPixelLike) {
          node.end = skipEncapsulated(reader, valueStart, little);
          node.valueLength = node.end - valueStart;
        } else {
          // SQ, or UN of undefined length, which PS3.5 6.2.2 (CP-246) reads as an implicit little endian sequence.
          const itemEncoding = vr === 'UN' && encoding.explicit ? IMPLICIT_LITTLE : encoding;
          const read = readItems(reader, valueStart, undefined, itemEncoding, depth + 1);
          node.items = read.items;
          node.itemEncoding = itemEncoding;
          node.vr = vr === 'UN' && !encoding.explicit ? 'SQ' : vr;
          node.end = read.next;
          node.valueLength = node.end - valueStart;
        }
      } else {
        const valueEnd = valueStart + length;
        if (valueEnd > limit) fail();
        node.valueLength = length;
        node.end = valueEnd;
        const implicitSequence =
          !encoding.explicit && (vr === 'SQ' || (vr === 'UN' && startsWithItem(reader, valueStart, length, little)));
        if (vr === 'SQ' || implicitSequence) {
          try {
            node.items = readItems(reader, valueStart, valueEnd, encoding, depth + 1).items;
            node.itemEncoding = encoding;
            node.vr = 'SQ';
          } catch (error) {
            if (vr === 'SQ' || error instanceof DicomLimitError) throw error;
          }
        }
      }
      if (group === 0x7fe0 && element === 0x0010) sawPixelData = true;
      elements.push(node);
      position = node.end;
    } catch (error) {
      if (context === 'top' && sawPixelData && !(error instanceof DicomLimitError)) return { elements, next: position };
      throw error;
    }
  }
  if (context === 'item' && end === undefined) fail();
  return { elements, next: position };
}

export function readDataSet(
  bytes: Uint8Array,
  offset: number,
  encoding: Encoding,
): { elements: DicomNode[]; next: number } {
  return readElements(new Reader(bytes), offset, undefined, encoding, 'top');
}

/** The file meta group (always explicit little endian): elements of group 0002 from offset 132. */
export function readMetaGroup(bytes: Uint8Array, offset: number): { elements: DicomNode[]; next: number } {
  const reader = new Reader(bytes);
  const elements: DicomNode[] = [];
  let position = offset;
  for (;;) {
    if (position + 8 > bytes.length || reader.u16(position, true) !== 0x0002) break;
    const a = bytes[position + 4];
    const b = bytes[position + 5];
    if (!isVrChars(a, b)) fail();
    const vr = String.fromCharCode(a!, b!);
    const long = LONG_VRS.has(vr);
    const length = long ? reader.u32(position + 8, true) : reader.u16(position + 6, true);
    const valueStart = position + (long ? 12 : 8);
    if (length === UNDEFINED || valueStart + length > bytes.length) fail();
    const element = reader.u16(position + 2, true);
    elements.push({
      group: 2,
      element,
      tag: tagKey(2, element),
      vr,
      start: position,
      valueStart,
      valueLength: length,
      end: valueStart + length,
      undefinedLength: false,
    });
    position = valueStart + length;
  }
  return { elements, next: position };
}

/** Bytes as one character per byte, so text edits re-encode to the very same bytes whatever the character set. */
export function bytesToBinaryString(bytes: Uint8Array): string {
  let text = '';
  if (bytes.length <= 64) {
    // Most values are short: a plain loop allocates less than spreading a view.
    for (let i = 0; i < bytes.length; i++) text += String.fromCharCode(bytes[i]!);
    return text;
  }
  for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return text;
}

export function binaryStringToBytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  return out;
}

/**
 * A string value with padding (trailing spaces and NULs, leading spaces) removed. Trimmed by index, not by a regular
 * expression anchored at the end, which backtracks over every run of spaces and grows with the square of the value.
 */
export function nodeText(bytes: Uint8Array, node: DicomNode): string {
  let start = node.valueStart;
  let end = node.valueStart + node.valueLength;
  while (end > start && (bytes[end - 1] === 0x20 || bytes[end - 1] === 0)) end -= 1;
  while (start < end && bytes[start] === 0x20) start += 1;
  return bytesToBinaryString(bytes.subarray(start, end));
}
