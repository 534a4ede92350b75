import { TAG, tagElement, tagGroup } from '#shared/dicom/tags.ts';
import { DEIDENTIFICATION_PROFILE, type ResolvedProfile } from './profile.ts';
import { isLongVr, type Encoding } from './tokenize.ts';

/**
 * The byte side of the de-identifier: one growing buffer that elements are written into in order, element and item
 * headers in the dataset's encoding, values padded to even length, and the lengths of sequences and items of defined
 * length filled in once their content is written. One copy per output byte, no per-element arrays to join.
 */
export class ByteWriter {
  private buffer: Uint8Array;
  private view: DataView;
  length = 0;

  constructor(capacity = 64 * 1024) {
    this.buffer = new Uint8Array(Math.max(capacity, 1024));
    this.view = new DataView(this.buffer.buffer);
  }

  private ensure(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.length + extra) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
    this.view = new DataView(grown.buffer);
  }

  bytes(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** A string value, one byte per character (binary strings, see tokenize.ts), padded to even length. */
  text(value: string, vr: string): void {
    const padded = value.length + (value.length % 2);
    this.ensure(padded);
    for (let i = 0; i < value.length; i++) this.buffer[this.length + i] = value.charCodeAt(i) & 0xff;
    if (padded > value.length) this.buffer[this.length + value.length] = vr === 'UI' ? 0 : 0x20;
    this.length += padded;
  }

  u16(value: number, little: boolean): void {
    this.ensure(2);
    this.view.setUint16(this.length, value, little);
    this.length += 2;
  }

  u32(value: number, little: boolean): void {
    this.ensure(4);
    this.view.setUint32(this.length, value, little);
    this.length += 4;
  }

  patchU32(offset: number, value: number, little: boolean): void {
    this.view.setUint32(offset, value, little);
  }

  result(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }
}

type Header = { group: number; element: number; vr: string };

/** Writes an element header; returns the offset of its length field when that field is 32 bits (for patching). */
export function writeHeader(out: ByteWriter, node: Header, length: number, encoding: Encoding): number {
  const little = encoding.littleEndian;
  out.u16(node.group, little);
  out.u16(node.element, little);
  if (!encoding.explicit) {
    out.u32(length, little);
    return out.length - 4;
  }
  out.bytes(VR_BYTES(node.vr));
  if (isLongVr(node.vr)) {
    out.u16(0, little);
    out.u32(length, little);
    return out.length - 4;
  }
  out.u16(length, little);
  return -1;
}

const VR_CACHE = new Map<string, Uint8Array>();
function VR_BYTES(vr: string): Uint8Array {
  let bytes = VR_CACHE.get(vr);
  if (!bytes) {
    bytes = new Uint8Array([vr.charCodeAt(0), vr.charCodeAt(1)]);
    VR_CACHE.set(vr, bytes);
  }
  return bytes;
}

/** A text element: header and even-padded value. */
export function writeText(out: ByteWriter, node: Header, value: string, encoding: Encoding): void {
  writeHeader(out, node, value.length + (value.length % 2), encoding);
  out.text(value, node.vr);
}

/** An element with a binary value as given. */
export function writeValue(out: ByteWriter, node: Header, value: Uint8Array, encoding: Encoding): void {
  writeHeader(out, node, value.length, encoding);
  out.bytes(value);
}

const UNDEFINED = 0xffffffff;

function itemTag(out: ByteWriter, element: number, length: number, encoding: Encoding): void {
  out.u16(0xfffe, encoding.littleEndian);
  out.u16(element, encoding.littleEndian);
  out.u32(length, encoding.littleEndian);
}

/**
 * A sequence whose items are written by `writeItem`: `outer` encodes the sequence's own header, `inner` its items
 * and delimiters; each length form (defined or undefined) is kept as the input had it.
 */
export function writeSequence(
  out: ByteWriter,
  node: Header & { undefinedLength: boolean },
  items: readonly { undefinedLength: boolean }[],
  outer: Encoding,
  inner: Encoding,
  writeItem: (index: number) => void,
): void {
  const sequence = { ...node, vr: node.vr === 'UN' && !outer.explicit ? 'SQ' : node.vr };
  const lengthAt = writeHeader(out, sequence, node.undefinedLength ? UNDEFINED : 0, outer);
  const start = out.length;
  items.forEach((item, index) => {
    itemTag(out, 0xe000, item.undefinedLength ? UNDEFINED : 0, inner);
    const itemStart = out.length;
    writeItem(index);
    if (item.undefinedLength) itemTag(out, 0xe00d, 0, inner);
    else out.patchU32(itemStart - 4, out.length - itemStart, inner.littleEndian);
  });
  if (node.undefinedLength) itemTag(out, 0xe0dd, 0, inner);
  else out.patchU32(lengthAt, out.length - start, outer.littleEndian);
}

/** An empty sequence (a sequence emptied by the profile): defined length 0. */
export function writeEmptySequence(out: ByteWriter, node: Header, encoding: Encoding): void {
  writeHeader(out, { ...node, vr: node.vr === 'UN' ? 'SQ' : node.vr }, 0, encoding);
}

const headerOf = (tag: string, vr: string): Header => ({ group: tagGroup(tag), element: tagElement(tag), vr });

/** The tags of the de-identification record, in the order it is written. */
export const RECORD_TAGS: readonly string[] = [
  TAG.PatientIdentityRemoved,
  TAG.DeidentificationMethod,
  TAG.DeidentificationMethodCodeSequence,
  TAG.LongitudinalTemporalInformationModified,
];

/** PS3.15 E.1.1: one element of the de-identification record (CID 7050 codes in the code sequence). */
export function writeRecordElement(out: ByteWriter, tag: string, profile: ResolvedProfile, encoding: Encoding): void {
  switch (tag) {
    case TAG.PatientIdentityRemoved:
      writeText(out, headerOf(tag, 'CS'), 'YES', encoding);
      return;
    case TAG.DeidentificationMethod:
      writeText(out, headerOf(tag, 'LO'), profile.methodText.map((text) => text.slice(0, 64)).join('\\'), encoding);
      return;
    case TAG.DeidentificationMethodCodeSequence:
      writeSequence(
        out,
        { ...headerOf(tag, 'SQ'), undefinedLength: false },
        profile.codes.map(() => ({ undefinedLength: false })),
        encoding,
        encoding,
        (index) => {
          const code = profile.codes[index]!;
          writeText(out, headerOf(TAG.CodeValue, 'SH'), code.value, encoding);
          writeText(out, headerOf(TAG.CodingSchemeDesignator, 'SH'), DEIDENTIFICATION_PROFILE.codingScheme, encoding);
          writeText(out, headerOf(TAG.CodeMeaning, 'LO'), code.meaning, encoding);
        },
      );
      return;
    case TAG.LongitudinalTemporalInformationModified:
      writeText(out, headerOf(tag, 'CS'), profile.categories.has('modified-dates') ? 'MODIFIED' : 'REMOVED', encoding);
      return;
  }
}

/** Our implementation identifies itself in the file meta group it writes (PS3.7 D.3.3.2). */
const IMPLEMENTATION_CLASS_UID = '2.25.216071385960478290587209016236498390539';
const IMPLEMENTATION_VERSION = 'IWS_DEID_2024B';
const EXPLICIT_LITTLE: Encoding = { explicit: true, littleEndian: true };

/** Preamble, DICM and the file meta group (PS3.10 7.1), always explicit little endian, with its group length. */
export function writePreambleAndMeta(
  out: ByteWriter,
  sopClassUID: string,
  sopInstanceUID: string,
  transferSyntaxUID: string,
): void {
  const preamble = new Uint8Array(132);
  preamble.set([0x44, 0x49, 0x43, 0x4d], 128);
  out.bytes(preamble);
  writeValue(out, headerOf(TAG.FileMetaInformationGroupLength, 'UL'), new Uint8Array(4), EXPLICIT_LITTLE);
  const lengthAt = out.length - 4;
  const start = out.length;
  writeValue(out, headerOf(TAG.FileMetaInformationVersion, 'OB'), new Uint8Array([0, 1]), EXPLICIT_LITTLE);
  writeText(out, headerOf(TAG.MediaStorageSOPClassUID, 'UI'), sopClassUID, EXPLICIT_LITTLE);
  writeText(out, headerOf(TAG.MediaStorageSOPInstanceUID, 'UI'), sopInstanceUID, EXPLICIT_LITTLE);
  writeText(out, headerOf(TAG.TransferSyntaxUID, 'UI'), transferSyntaxUID, EXPLICIT_LITTLE);
  writeText(out, headerOf(TAG.ImplementationClassUID, 'UI'), IMPLEMENTATION_CLASS_UID, EXPLICIT_LITTLE);
  writeText(out, headerOf(TAG.ImplementationVersionName, 'SH'), IMPLEMENTATION_VERSION, EXPLICIT_LITTLE);
  out.patchU32(lengthAt, out.length - start, true);
}
