import { deflateRaw, inflateRaw } from 'pako';
import type { AnonymizationOptions } from '#shared/schemas/api/datasets.ts';
import { concatBytes } from '#shared/dicom/bytes.ts';
import { hmacSha256, toHex, uidFromDigest, utf8 } from '#shared/dicom/hash.ts';
import { DicomParseError, TRANSFER_SYNTAX, gunzipIfNeeded, hasDicmPrefix, parseDicom } from '#shared/dicom/parse.ts';
import { SECONDARY_CAPTURE_SOP_CLASSES } from '#shared/dicom/sop-classes.ts';
import {
  ANNEX_E_BY_TAG,
  DEIDENTIFICATION_PROFILE,
  basicAction,
  effectiveAction,
  resolveProfile,
  type EffectiveAction,
  type ResolvedProfile,
} from './profile.ts';
import { isSafePrivate } from './safe-private.ts';
import {
  binaryStringToBytes,
  bytesToBinaryString,
  isLongVr,
  nodeText,
  readDataSet,
  readMetaGroup,
  type DicomItem,
  type DicomNode,
  type Encoding,
} from './tokenize.ts';

export { DEIDENTIFICATION_PROFILE } from './profile.ts';

export type DeidentifyContext = { secret: string; hospitalId: string; options: AnonymizationOptions; uidRoot?: string };
export type DeidentifySummary = {
  removed: number;
  emptied: number;
  replaced: number;
  uidsReplaced: number;
  kept: number;
};
export type DeidentifyResult = {
  bytes: Uint8Array;
  studyInstanceUID: string;
  seriesInstanceUID: string;
  sopInstanceUID: string;
  burnedInAnnotation: boolean;
  secondaryCapture: boolean;
  summary: DeidentifySummary;
};

const TEXT_VRS = new Set(['LO', 'SH', 'LT', 'ST', 'UT', 'PN', 'UC', 'AE', 'UR']);
const DUMMY_TEXT = 'ANONYMIZED';
/** Our implementation identifies itself in the file meta group it writes (PS3.7 D.3.3.2). */
const IMPLEMENTATION_CLASS_UID = '2.25.216071385960478290587209016236498390539';
const IMPLEMENTATION_VERSION = 'IWS_DEID_2024B';

const SYNTAX_ENCODING: Record<string, Encoding> = {
  [TRANSFER_SYNTAX.implicitLittle]: { explicit: false, littleEndian: true },
  [TRANSFER_SYNTAX.explicitBig]: { explicit: true, littleEndian: false },
};
const encodingOf = (syntax: string): Encoding => SYNTAX_ENCODING[syntax] ?? { explicit: true, littleEndian: true };

type Chunk = { key: number; parts: Uint8Array[]; length: number };

type Session = {
  source: Uint8Array;
  context: DeidentifyContext;
  profile: ResolvedProfile;
  key: Uint8Array;
  /** Identifying strings of this file (names, IDs, addresses...) that no kept text may carry on. */
  identifiers: string[];
  dateShiftDays: number;
  pseudonym: string;
  summary: DeidentifySummary;
  uids: Map<string, string>;
};

function elementHeader(
  node: { group: number; element: number; vr: string },
  length: number,
  encoding: Encoding,
): Uint8Array {
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
function encodeText(value: string, vr: string): Uint8Array {
  const bytes = binaryStringToBytes(value);
  if (bytes.length % 2 === 0) return bytes;
  return concatBytes([bytes, new Uint8Array([vr === 'UI' ? 0 : 0x20])]);
}

function replacedElement(node: DicomNode, value: Uint8Array, encoding: Encoding): Chunk {
  const header = elementHeader(node, value.length, encoding);
  return { key: node.group * 0x10000 + node.element, parts: [header, value], length: header.length + value.length };
}

function copied(source: Uint8Array, node: DicomNode): Chunk {
  return {
    key: node.group * 0x10000 + node.element,
    parts: [source.subarray(node.start, node.end)],
    length: node.end - node.start,
  };
}

function newUid(session: Session, uid: string): string {
  const cached = session.uids.get(uid);
  if (cached) return cached;
  const digest = hmacSha256(session.key, utf8(`${session.context.hospitalId}|uid|${uid}`));
  const replacement = uidFromDigest(digest, session.context.uidRoot ?? '2.25.');
  session.uids.set(uid, replacement);
  return replacement;
}

function shiftDate(date: string, days: number): string {
  const match = /^(\d{4})(\d{2})(\d{2})/.exec(date);
  if (!match) return '';
  const time = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) + days * 86_400_000;
  const shifted = new Date(time);
  const text = `${shifted.getUTCFullYear()}${String(shifted.getUTCMonth() + 1).padStart(2, '0')}${String(shifted.getUTCDate()).padStart(2, '0')}`;
  return text + date.slice(8);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Removes every identifying string of the file from a text value, case-insensitively. */
function scrub(text: string, session: Session): string {
  let out = text;
  for (const identifier of session.identifiers) {
    if (out.toUpperCase().includes(identifier.toUpperCase()))
      out = out.replace(new RegExp(escapeRegExp(identifier), 'gi'), '');
  }
  return out;
}

/**
 * Clean Descriptors (PS3.15 E.3.5): keeps the descriptive words of a description and drops the file's identifying
 * strings, anything shaped like a date, long digit runs (record numbers) and e-mail addresses.
 */
function cleanDescriptor(text: string, session: Session): string {
  return scrub(text, session)
    .replace(/\S+@\S+/g, '')
    .replace(/\b\d{4}[-/.]\d{1,2}[-/.]\d{1,4}\b|\b\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}\b/g, '')
    .replace(/\d{6,}/g, '')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

function dummyValue(node: DicomNode, session: Session): Uint8Array {
  switch (node.vr) {
    case 'PN':
      return encodeText(node.tag === '00100010' ? session.pseudonym : DUMMY_TEXT, 'PN');
    case 'LO':
    case 'SH':
    case 'LT':
    case 'ST':
    case 'UT':
    case 'UC':
    case 'AE':
    case 'CS':
      return encodeText(node.tag === '00100020' ? session.pseudonym : DUMMY_TEXT, node.vr);
    case 'UR':
      return encodeText('urn:anonymized', 'UR');
    case 'DA':
      return encodeText('19000101', 'DA');
    case 'DT':
      return encodeText('19000101000000', 'DT');
    case 'TM':
      return encodeText('000000', 'TM');
    case 'AS':
      return encodeText('000Y', 'AS');
    case 'IS':
    case 'DS':
      return encodeText('0', node.vr);
    default:
      return new Uint8Array(node.valueLength);
  }
}

/** Values of a table attribute that is not kept become identifiers that must not survive elsewhere in the file. */
function collectIdentifiers(elements: DicomNode[], session: Session, depth = 0): void {
  if (depth > 16) return;
  for (const node of elements) {
    if (node.items) {
      for (const item of node.items) collectIdentifiers(item.elements, session, depth + 1);
      continue;
    }
    const row = ANNEX_E_BY_TAG.get(node.tag);
    if (!row || !TEXT_VRS.has(node.vr) || node.valueLength > 1024) continue;
    const action = effectiveAction(row, session.profile, node.vr);
    if (action === 'keep' || action === 'clean') continue;
    const value = nodeText(session.source, node);
    const parts = node.vr === 'PN' ? value.split(/[\^=\\]/) : value.split('\\');
    for (const part of [value, ...parts]) {
      const trimmed = part.trim();
      if (trimmed.length >= (node.vr === 'PN' ? 3 : 4) && !/^ANONYMI[SZ]ED$/i.test(trimmed))
        session.identifiers.push(trimmed);
    }
  }
}

type DataSetResult = { chunks: Chunk[]; uids: Record<string, string> };

/** Applies the profile to one dataset (the top level or a sequence item). */
function rewriteDataSet(elements: DicomNode[], encoding: Encoding, session: Session, depth: number): DataSetResult {
  const { source, summary } = session;
  const chunks: Chunk[] = [];
  const uids: Record<string, string> = {};
  const creators = new Map<string, string>();
  for (const node of elements) {
    if (node.group % 2 === 1 && node.element >= 0x10 && node.element <= 0xff)
      creators.set(`${node.group}|${node.element}`, nodeText(source, node));
  }
  const keptBlocks = new Set<string>();
  const pendingCreators: DicomNode[] = [];
  for (const node of elements) {
    if (node.element === 0x0000 || node.group === 0xfffc || node.group === 0xfffa) {
      // Group lengths are stale after edits (retired in PS3.5 7.2); trailing padding and signatures go too.
      summary.removed += 1;
      continue;
    }
    if (node.group % 2 === 1) {
      if (node.element < 0x10) {
        summary.removed += 1;
        continue;
      }
      if (node.element <= 0xff) {
        pendingCreators.push(node);
        continue;
      }
      const block = node.element >> 8;
      const creator = creators.get(`${node.group}|${block}`) ?? '';
      const keep = session.profile.keepPrivate || isSafePrivate(creator, node.group, node.element & 0xff);
      if (!keep) {
        summary.removed += 1;
        continue;
      }
      if (node.items) {
        chunks.push(rewriteSequence(node, encoding, session, depth));
      } else {
        // Belt and braces: a safe private value that happens to carry an identifying string is dropped.
        const raw = bytesToBinaryString(source.subarray(node.valueStart, node.end)).toUpperCase();
        if (session.identifiers.some((identifier) => raw.includes(identifier.toUpperCase()))) {
          summary.removed += 1;
          continue;
        }
        chunks.push(copied(source, node));
      }
      summary.kept += 1;
      keptBlocks.add(`${node.group}|${block}`);
      continue;
    }
    if ((node.group & 0xff00) === 0x5000 || (node.group & 0xff00) === 0x6000) {
      // PS3.15 Table E.1-1: Curve Data (50xx,xxxx) → X, Overlay Data/Comments (60xx,3000/4000) → X. The rest of the
      // overlay group goes too, so no overlay plane points at data that is gone.
      summary.removed += 1;
      continue;
    }
    if (
      node.group === 0x0012 &&
      (node.element === 0x0062 || node.element === 0x0063 || node.element === 0x0064) &&
      depth === 0
    )
      continue;
    if (node.tag === '00280303' && depth === 0) continue;
    const row = ANNEX_E_BY_TAG.get(node.tag);
    let action: EffectiveAction = row ? effectiveAction(row, session.profile, node.vr) : 'keep';
    // Cleaning means shifting dates (modified dates) or cleaning free text; a time survives a whole-day shift.
    // Any other value (binary maker notes, coded strings) cannot be cleaned and takes the Basic Profile action.
    if (row && action === 'clean' && !node.items && !TEXT_VRS.has(node.vr) && !['DA', 'DT', 'TM'].includes(node.vr))
      action = basicAction(row, node.vr);
    if (row && action !== 'keep' && action !== 'clean') {
      if (action === 'remove') {
        summary.removed += 1;
        continue;
      }
      if (node.tag === '00100010' || node.tag === '00100020') {
        // Z (or Z/D) allows a dummy: a keyed pseudonym, the same for a patient across uploads to one hospital.
        summary.replaced += 1;
        chunks.push(replacedElement(node, encodeText(session.pseudonym, node.vr), encoding));
        continue;
      }
      if (action === 'empty' || (node.items && action === 'dummy')) {
        summary.emptied += 1;
        chunks.push(node.items ? emptySequence(node, encoding) : replacedElement(node, new Uint8Array(0), encoding));
        continue;
      }
      if (action === 'uid') {
        const replaced = nodeText(source, node)
          .split('\\')
          .map((uid) => (uid ? newUid(session, uid.trim()) : ''))
          .join('\\');
        summary.uidsReplaced += 1;
        uids[node.tag] = replaced;
        chunks.push(replacedElement(node, encodeText(replaced, node.vr), encoding));
        continue;
      }
      summary.replaced += 1;
      chunks.push(replacedElement(node, dummyValue(node, session), encoding));
      continue;
    }
    if (row) summary.kept += 1;
    if (node.items) {
      chunks.push(rewriteSequence(node, encoding, session, depth));
      continue;
    }
    if (action === 'clean' && (node.vr === 'DA' || node.vr === 'DT')) {
      const shifted = nodeText(source, node)
        .split('\\')
        .map((date) => shiftDate(date.trim(), session.dateShiftDays))
        .join('\\');
      summary.replaced += 1;
      chunks.push(replacedElement(node, encodeText(shifted, node.vr), encoding));
      continue;
    }
    if (TEXT_VRS.has(node.vr) && node.valueLength > 0) {
      const value = nodeText(source, node);
      const cleaned = action === 'clean' ? cleanDescriptor(value, session) : scrub(value, session);
      if (cleaned !== value) {
        summary.replaced += 1;
        chunks.push(replacedElement(node, encodeText(cleaned, node.vr), encoding));
        continue;
      }
    }
    if (node.tag === '00080018' || node.tag === '0020000D' || node.tag === '0020000E')
      uids[node.tag] = nodeText(source, node);
    chunks.push(copied(source, node));
  }
  for (const creator of pendingCreators) {
    if (keptBlocks.has(`${creator.group}|${creator.element}`)) chunks.push(copied(source, creator));
    else summary.removed += 1;
  }
  chunks.sort((a, b) => a.key - b.key);
  return { chunks, uids };
}

function emptySequence(node: DicomNode, encoding: Encoding): Chunk {
  const header = elementHeader({ ...node, vr: node.vr === 'UN' ? 'SQ' : node.vr }, 0, encoding);
  return { key: node.group * 0x10000 + node.element, parts: [header], length: header.length };
}

function rewriteItem(item: DicomItem, encoding: Encoding, session: Session, depth: number): Chunk {
  const { chunks } = rewriteDataSet(item.elements, encoding, session, depth + 1);
  const parts = chunks.flatMap((chunk) => chunk.parts);
  const bodyLength = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  if (item.undefinedLength) {
    return {
      key: 0,
      parts: [itemTag(0xe000, 0xffffffff, encoding), ...parts, itemTag(0xe00d, 0, encoding)],
      length: bodyLength + 16,
    };
  }
  return { key: 0, parts: [itemTag(0xe000, bodyLength, encoding), ...parts], length: bodyLength + 8 };
}

function rewriteSequence(node: DicomNode, outer: Encoding, session: Session, depth: number): Chunk {
  if (depth > 32) throw new DicomParseError('DICOM parsing failed');
  const itemEncoding = node.itemEncoding!;
  const items = node.items!.map((item) => rewriteItem(item, itemEncoding, session, depth));
  const bodyLength = items.reduce((sum, item) => sum + item.length, 0);
  const parts = items.flatMap((item) => item.parts);
  if (node.undefinedLength) {
    const header = elementHeader(node, 0xffffffff, outer);
    return {
      key: node.group * 0x10000 + node.element,
      parts: [header, ...parts, itemTag(0xe0dd, 0, itemEncoding)],
      length: header.length + bodyLength + 8,
    };
  }
  const header = elementHeader(node, bodyLength, outer);
  return { key: node.group * 0x10000 + node.element, parts: [header, ...parts], length: header.length + bodyLength };
}

function textElement(group: number, element: number, vr: string, value: string, encoding: Encoding): Chunk {
  return replacedElement({ group, element, vr } as DicomNode, encodeText(value, vr), encoding);
}

/** PS3.15 E.1.1: PatientIdentityRemoved, DeidentificationMethod and its code sequence (CID 7050), and (0028,0303). */
function deidentificationRecord(session: Session, encoding: Encoding): Chunk[] {
  const items = session.profile.codes.map((code) => {
    const body = [
      textElement(0x0008, 0x0100, 'SH', code.value, encoding),
      textElement(0x0008, 0x0102, 'SH', DEIDENTIFICATION_PROFILE.codingScheme, encoding),
      textElement(0x0008, 0x0104, 'LO', code.meaning, encoding),
    ];
    const length = body.reduce((sum, chunk) => sum + chunk.length, 0);
    return {
      key: 0,
      parts: [itemTag(0xe000, length, encoding), ...body.flatMap((chunk) => chunk.parts)],
      length: length + 8,
    };
  });
  const sequenceLength = items.reduce((sum, item) => sum + item.length, 0);
  const sequenceHeader = elementHeader({ group: 0x0012, element: 0x0064, vr: 'SQ' }, sequenceLength, encoding);
  const method = session.profile.methodText.map((text) => text.slice(0, 64)).join('\\');
  const dates = session.profile.categories.has('modified-dates') ? 'MODIFIED' : 'REMOVED';
  return [
    textElement(0x0012, 0x0062, 'CS', 'YES', encoding),
    textElement(0x0012, 0x0063, 'LO', method, encoding),
    {
      key: 0x00120064,
      parts: [sequenceHeader, ...items.flatMap((item) => item.parts)],
      length: sequenceHeader.length + sequenceLength,
    },
    textElement(0x0028, 0x0303, 'CS', dates, encoding),
  ];
}

function findText(source: Uint8Array, elements: DicomNode[], tag: string): string | undefined {
  const node = elements.find((element) => element.tag === tag);
  return node ? nodeText(source, node) : undefined;
}

function metaGroup(sopClassUID: string, sopInstanceUID: string, transferSyntaxUID: string): Uint8Array {
  const little: Encoding = { explicit: true, littleEndian: true };
  const body = [
    replacedElement({ group: 2, element: 1, vr: 'OB' } as DicomNode, new Uint8Array([0, 1]), little),
    textElement(2, 0x0002, 'UI', sopClassUID, little),
    textElement(2, 0x0003, 'UI', sopInstanceUID, little),
    textElement(2, 0x0010, 'UI', transferSyntaxUID, little),
    textElement(2, 0x0012, 'UI', IMPLEMENTATION_CLASS_UID, little),
    textElement(2, 0x0013, 'SH', IMPLEMENTATION_VERSION, little),
  ];
  const length = body.reduce((sum, chunk) => sum + chunk.length, 0);
  const groupLength = new Uint8Array(4);
  new DataView(groupLength.buffer).setUint32(0, length, true);
  const header = replacedElement({ group: 2, element: 0, vr: 'UL' } as DicomNode, groupLength, little);
  return concatBytes([...header.parts, ...body.flatMap((chunk) => chunk.parts)]);
}

/**
 * De-identifies one DICOM file with the PS3.15 Annex E Basic Profile (edition 2024b) and the chosen options, applied
 * to every attribute at every sequence depth, the file meta group and private blocks included. The output keeps the
 * input's transfer syntax; every byte that is kept (pixel data above all) is copied unchanged. UIDs are replaced by
 * HMAC-SHA256(secret, hospitalId + UID) as a 2.25 UID, so the same study gets the same UIDs in every file and on
 * every re-upload, with no state. A gzip input gives plain DICOM out.
 * @throws DicomParseError ("Not a DICOM file" / "DICOM parsing failed") for input it cannot rewrite faithfully.
 * @example deidentifyDicom(bytes, { secret, hospitalId: 'northside', options: AnonymizationOptionsSchema.parse({}) })
 */
export function deidentifyDicom(bytes: Uint8Array, context: DeidentifyContext): DeidentifyResult {
  const plain = gunzipIfNeeded(bytes);
  let transferSyntaxUID: string;
  let datasetStart: number;
  let metaSopClass: string | undefined;
  if (hasDicmPrefix(plain)) {
    const meta = readMetaGroup(plain, 132);
    transferSyntaxUID = findText(plain, meta.elements, '00020010') ?? TRANSFER_SYNTAX.explicitLittle;
    metaSopClass = findText(plain, meta.elements, '00020002');
    datasetStart = meta.next;
  } else {
    const parsed = parseDicom(plain);
    if (parsed.lenient) throw new DicomParseError('DICOM parsing failed');
    transferSyntaxUID = parsed.transferSyntaxUID;
    datasetStart = 0;
  }
  const deflated = transferSyntaxUID === TRANSFER_SYNTAX.deflatedExplicitLittle;
  let source = plain;
  if (deflated) {
    try {
      source = inflateRaw(plain.subarray(datasetStart));
    } catch {
      throw new DicomParseError('DICOM parsing failed');
    }
    datasetStart = 0;
  }
  const encoding = encodingOf(transferSyntaxUID);
  let elements: DicomNode[];
  try {
    elements = readDataSet(source, datasetStart, encoding).elements;
  } catch (error) {
    if (error instanceof DicomParseError) throw error;
    throw new DicomParseError('DICOM parsing failed');
  }
  if (elements.length === 0) throw new DicomParseError('Not a DICOM file');
  const key = utf8(context.secret);
  const patientID = findText(source, elements, '00100020') ?? '';
  const patientDigest = hmacSha256(key, utf8(`${context.hospitalId}|patient|${patientID}`));
  const session: Session = {
    source,
    context,
    key,
    profile: resolveProfile(context.options),
    identifiers: [],
    // A per-patient shift of 1 to 10 years back keeps intervals between a patient's studies (E.3.6, modified dates).
    dateShiftDays: -(365 + (((patientDigest[0]! << 8) | patientDigest[1]!) % 3285)),
    pseudonym: `IWS-${toHex(patientDigest).slice(0, 16).toUpperCase()}`,
    summary: { removed: 0, emptied: 0, replaced: 0, uidsReplaced: 0, kept: 0 },
    uids: new Map(),
  };
  collectIdentifiers(elements, session);
  session.identifiers.sort((a, b) => b.length - a.length);
  const { chunks, uids } = rewriteDataSet(elements, encoding, session, 0);
  chunks.push(...deidentificationRecord(session, encoding));
  chunks.sort((a, b) => a.key - b.key);
  const sopClassUID = findText(source, elements, '00080016') ?? metaSopClass ?? '';
  const sopInstanceUID = uids['00080018'] ?? '';
  let dataset = concatBytes(
    chunks.flatMap((chunk) => chunk.parts),
    chunks.reduce((sum, chunk) => sum + chunk.length, 0),
  );
  if (deflated) dataset = deflateRaw(dataset);
  const meta = metaGroup(sopClassUID, sopInstanceUID, transferSyntaxUID);
  const preamble = new Uint8Array(132);
  preamble.set([0x44, 0x49, 0x43, 0x4d], 128);
  return {
    bytes: concatBytes([preamble, meta, dataset]),
    studyInstanceUID: uids['0020000D'] ?? '',
    seriesInstanceUID: uids['0020000E'] ?? '',
    sopInstanceUID,
    burnedInAnnotation: (findText(source, elements, '00280301') ?? '').toUpperCase() === 'YES',
    secondaryCapture: SECONDARY_CAPTURE_SOP_CLASSES.has(sopClassUID),
    summary: session.summary,
  };
}
