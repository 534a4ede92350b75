import { concatBytes } from '#shared/dicom/bytes.ts';
import { TAG, tagElement, tagGroup } from '#shared/dicom/tags.ts';
import { DEIDENTIFICATION_PROFILE, type ResolvedProfile } from './profile.ts';
import { binaryStringToBytes, isLongVr, type DicomNode, type Encoding } from './tokenize.ts';

/**
 * The byte side of the de-identifier: element and item headers in the dataset's encoding, values padded to even
 * length, sequences and items re-measured after edits, the file meta group and the de-identification record.
 * Output is collected as chunks (byte parts plus their total length) and joined once at the end.
 */
export type Chunk = { key: number; parts: Uint8Array[]; length: number };

/** Our implementation identifies itself in the file meta group it writes (PS3.7 D.3.3.2). */
const IMPLEMENTATION_CLASS_UID = '2.25.216071385960478290587209016236498390539';
const IMPLEMENTATION_VERSION = 'IWS_DEID_2024B';
const EXPLICIT_LITTLE: Encoding = { explicit: true, littleEndian: true };

type Header = { group: number; element: number; vr: string };

const keyOf = (node: Header): number => node.group * 0x10000 + node.element;

export function elementHeader(node: Header, length: number, encoding: Encoding): Uint8Array {
  const little = encoding.littleEndian;
  const long = isLongVr(node.vr);
  const out = new Uint8Array(encoding.explicit && long ? 12 : 8);
  const view = new DataView(out.buffer);
  view.setUint16(0, node.group, little);
  view.setUint16(2, node.element, little);
  if (!encoding.explicit) {
    view.setUint32(4, length, little);
    return out;
  }
  out[4] = node.vr.charCodeAt(0);
  out[5] = node.vr.charCodeAt(1);
  if (long) view.setUint32(8, length, little);
  else view.setUint16(6, length, little);
  return out;
}

function itemTag(element: number, length: number, encoding: Encoding): Uint8Array {
  const out = new Uint8Array(8);
  const view = new DataView(out.buffer);
  view.setUint16(0, 0xfffe, encoding.littleEndian);
  view.setUint16(2, element, encoding.littleEndian);
  view.setUint32(4, length, encoding.littleEndian);
  return out;
}

/** A string value padded to even length: UI with NUL, text with a space (PS3.5 6.2). */
export function encodeText(value: string, vr: string): Uint8Array {
  if (value.length % 2 === 0) return binaryStringToBytes(value);
  const out = new Uint8Array(value.length + 1);
  for (let i = 0; i < value.length; i++) out[i] = value.charCodeAt(i) & 0xff;
  out[value.length] = vr === 'UI' ? 0 : 0x20;
  return out;
}

export function replacedElement(node: Header, value: Uint8Array, encoding: Encoding): Chunk {
  const header = elementHeader(node, value.length, encoding);
  return { key: keyOf(node), parts: [header, value], length: header.length + value.length };
}

export function textElement(tag: string, vr: string, value: string, encoding: Encoding): Chunk {
  return replacedElement({ group: tagGroup(tag), element: tagElement(tag), vr }, encodeText(value, vr), encoding);
}

/** An element kept as it is: its bytes, header included, copied unchanged. */
export function copiedElement(source: Uint8Array, node: DicomNode): Chunk {
  return { key: keyOf(node), parts: [source.subarray(node.start, node.end)], length: node.end - node.start };
}

export function emptySequence(node: DicomNode, encoding: Encoding): Chunk {
  const header = elementHeader({ ...node, vr: node.vr === 'UN' ? 'SQ' : node.vr }, 0, encoding);
  return { key: keyOf(node), parts: [header], length: header.length };
}

/** One item around its (already rewritten) elements, keeping the item's defined or undefined length form. */
export function itemChunk(body: Chunk[], undefinedLength: boolean, encoding: Encoding): Chunk {
  const parts = body.flatMap((chunk) => chunk.parts);
  const length = body.reduce((sum, chunk) => sum + chunk.length, 0);
  if (undefinedLength) {
    return {
      key: 0,
      parts: [itemTag(0xe000, 0xffffffff, encoding), ...parts, itemTag(0xe00d, 0, encoding)],
      length: length + 16,
    };
  }
  return { key: 0, parts: [itemTag(0xe000, length, encoding), ...parts], length: length + 8 };
}

/** A sequence around its items; `outer` encodes the sequence's own header, `inner` its delimiters. */
export function sequenceChunk(
  node: Header & { undefinedLength: boolean },
  items: Chunk[],
  outer: Encoding,
  inner: Encoding,
): Chunk {
  const length = items.reduce((sum, item) => sum + item.length, 0);
  const parts = items.flatMap((item) => item.parts);
  if (node.undefinedLength) {
    const header = elementHeader(node, 0xffffffff, outer);
    return {
      key: keyOf(node),
      parts: [header, ...parts, itemTag(0xe0dd, 0, inner)],
      length: header.length + length + 8,
    };
  }
  const header = elementHeader(node, length, outer);
  return { key: keyOf(node), parts: [header, ...parts], length: header.length + length };
}

/** PS3.15 E.1.1: PatientIdentityRemoved, DeidentificationMethod and its code sequence (CID 7050), and (0028,0303). */
export function deidentificationRecord(profile: ResolvedProfile, encoding: Encoding): Chunk[] {
  const items = profile.codes.map((code) =>
    itemChunk(
      [
        textElement(TAG.CodeValue, 'SH', code.value, encoding),
        textElement(TAG.CodingSchemeDesignator, 'SH', DEIDENTIFICATION_PROFILE.codingScheme, encoding),
        textElement(TAG.CodeMeaning, 'LO', code.meaning, encoding),
      ],
      false,
      encoding,
    ),
  );
  const sequence = TAG.DeidentificationMethodCodeSequence;
  const method = profile.methodText.map((text) => text.slice(0, 64)).join('\\');
  const dates = profile.categories.has('modified-dates') ? 'MODIFIED' : 'REMOVED';
  return [
    textElement(TAG.PatientIdentityRemoved, 'CS', 'YES', encoding),
    textElement(TAG.DeidentificationMethod, 'LO', method, encoding),
    sequenceChunk(
      { group: tagGroup(sequence), element: tagElement(sequence), vr: 'SQ', undefinedLength: false },
      items,
      encoding,
      encoding,
    ),
    textElement(TAG.LongitudinalTemporalInformationModified, 'CS', dates, encoding),
  ];
}

/** The file meta group (PS3.10 7.1), always explicit little endian, with its group length. */
export function metaGroup(sopClassUID: string, sopInstanceUID: string, transferSyntaxUID: string): Uint8Array {
  const version = TAG.FileMetaInformationVersion;
  const body = [
    replacedElement(
      { group: tagGroup(version), element: tagElement(version), vr: 'OB' },
      new Uint8Array([0, 1]),
      EXPLICIT_LITTLE,
    ),
    textElement(TAG.MediaStorageSOPClassUID, 'UI', sopClassUID, EXPLICIT_LITTLE),
    textElement(TAG.MediaStorageSOPInstanceUID, 'UI', sopInstanceUID, EXPLICIT_LITTLE),
    textElement(TAG.TransferSyntaxUID, 'UI', transferSyntaxUID, EXPLICIT_LITTLE),
    textElement(TAG.ImplementationClassUID, 'UI', IMPLEMENTATION_CLASS_UID, EXPLICIT_LITTLE),
    textElement(TAG.ImplementationVersionName, 'SH', IMPLEMENTATION_VERSION, EXPLICIT_LITTLE),
  ];
  const length = body.reduce((sum, chunk) => sum + chunk.length, 0);
  const groupLength = new Uint8Array(4);
  new DataView(groupLength.buffer).setUint32(0, length, true);
  const lengthTag = TAG.FileMetaInformationGroupLength;
  const header = replacedElement(
    { group: tagGroup(lengthTag), element: tagElement(lengthTag), vr: 'UL' },
    groupLength,
    EXPLICIT_LITTLE,
  );
  return concatBytes([...header.parts, ...body.flatMap((chunk) => chunk.parts)]);
}

/** Preamble, DICM, meta group and the dataset's chunks in tag order, joined in one copy. */
export function part10File(meta: Uint8Array, dataset: Uint8Array): Uint8Array {
  const preamble = new Uint8Array(132);
  preamble.set([0x44, 0x49, 0x43, 0x4d], 128);
  return concatBytes([preamble, meta, dataset]);
}

export function joinChunks(chunks: Chunk[]): Uint8Array {
  return concatBytes(
    chunks.flatMap((chunk) => chunk.parts),
    chunks.reduce((sum, chunk) => sum + chunk.length, 0),
  );
}
