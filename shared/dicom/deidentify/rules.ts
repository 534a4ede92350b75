import { TAG } from '#shared/dicom/tags.ts';
import type { IodTypes } from './iod-types.ts';
import { replacementUid, type PatientKeys } from './keys.ts';
import {
  ANNEX_E_BY_TAG,
  DESCRIPTOR_KEYWORDS,
  basicActionAt,
  effectiveAction,
  type AnnexERow,
  type ResolvedProfile,
} from './profile.ts';
import { isSafePrivateValue, safePrivateEntry } from './safe-private.ts';
import type { IdentifierIndex } from './text.ts';
import { binaryStringToBytes, bytesToBinaryString, nodeText, type DicomNode, type Encoding } from './tokenize.ts';
import { cleanDescription } from './vocabulary.ts';
import {
  RECORD_TAGS,
  writeEmptySequence,
  writeRecordElement,
  writeSequence,
  writeText,
  writeValue,
  type ByteWriter,
} from './writer.ts';

/**
 * The rules of the de-identifier: what happens to each element, at every sequence depth, under the resolved profile
 * (PS3.15 Table E.1-1 with its options, private blocks, repeating groups, the file's own identifying strings).
 */
export type DeidentifySummary = {
  removed: number;
  emptied: number;
  replaced: number;
  uidsReplaced: number;
  kept: number;
};

export type Session = {
  source: Uint8Array;
  profile: ResolvedProfile;
  secret: string;
  hospitalId: string;
  uidRoot: string;
  keys: PatientKeys;
  /** The file's identifying strings (names, IDs, addresses...) that no kept text may carry on. */
  identifiers: IdentifierIndex;
  summary: DeidentifySummary;
  uids: Map<string, string>;
  /** The attribute types of the object's IOD (its SOP Class), for the composite actions; undefined when not known. */
  iod: IodTypes | undefined;
};

const TEXT_VRS = new Set(['LO', 'SH', 'LT', 'ST', 'UT', 'PN', 'UC', 'AE', 'UR']);
/** VRs whose values are names and codes short enough to recur verbatim elsewhere in a file. */
const IDENTIFIER_VRS = new Set(['PN', 'LO', 'SH', 'AE']);
const DUMMY_TEXT = 'ANONYMIZED';

function newUid(session: Session, uid: string): string {
  const cached = session.uids.get(uid);
  if (cached) return cached;
  const replacement = replacementUid(session.secret, session.hospitalId, uid, session.uidRoot);
  session.uids.set(uid, replacement);
  return replacement;
}

export function shiftDate(date: string, days: number): string {
  const match = /^(\d{4})(\d{2})(\d{2})/.exec(date);
  if (!match) return '';
  const time = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) + days * 86_400_000;
  const shifted = new Date(time);
  const text = `${shifted.getUTCFullYear()}${String(shifted.getUTCMonth() + 1).padStart(2, '0')}${String(shifted.getUTCDate()).padStart(2, '0')}`;
  return text + date.slice(8);
}

const DUMMY_TEXT_BY_VR: Record<string, string> = {
  UR: 'urn:anonymized',
  DA: '19000101',
  DT: '19000101000000',
  TM: '000000',
  AS: '000Y',
  IS: '0',
  DS: '0',
};

/** A non-empty dummy (D): a neutral value of the element's VR; binary values become zeros of the same length. */
function writeDummy(out: ByteWriter, node: DicomNode, encoding: Encoding): void {
  const dummy = DUMMY_TEXT_BY_VR[node.vr] ?? (TEXT_VRS.has(node.vr) || node.vr === 'CS' ? DUMMY_TEXT : undefined);
  if (dummy !== undefined) writeText(out, node, dummy, encoding);
  else writeValue(out, node, new Uint8Array(node.valueLength), encoding);
}

/**
 * The identifying strings of a file: values of table attributes that are not kept (and their name parts), which no
 * kept text may carry on. Walked without recursion; tokenize.ts has already bounded the nesting.
 */
export function collectIdentifiers(elements: DicomNode[], source: Uint8Array, profile: ResolvedProfile): string[] {
  const found: string[] = [];
  const stack: DicomNode[][] = [elements];
  while (stack.length > 0) {
    for (const node of stack.pop()!) {
      if (node.items) {
        for (const item of node.items) stack.push(item.elements);
        continue;
      }
      const row = ANNEX_E_BY_TAG.get(node.tag);
      if (!row || !IDENTIFIER_VRS.has(node.vr) || node.valueLength > 64) continue;
      const action = effectiveAction(row, profile, node.vr);
      if (action === 'keep' || (action === 'clean' && DESCRIPTOR_KEYWORDS.has(row.keyword))) continue;
      const value = nodeText(source, node);
      const shortest = node.vr === 'PN' ? 3 : 4;
      const add = (part: string) => {
        const trimmed = part.trim();
        if (trimmed.length >= shortest && !/^ANONYMI[SZ]ED$/i.test(trimmed)) found.push(trimmed);
      };
      add(value);
      const separators = node.vr === 'PN' ? /[\^=\\]/ : /\\/;
      if (separators.test(value)) for (const part of value.split(separators)) add(part);
    }
  }
  return found;
}

/** What the profile does to one standard element. */
type Decision =
  | { kind: 'keep' }
  | { kind: 'items' }
  | { kind: 'remove' }
  | { kind: 'empty' }
  | { kind: 'dummy' }
  | { kind: 'uid' }
  | { kind: 'pseudonym' }
  | { kind: 'shift' }
  | { kind: 'describe'; fallback: 'remove' | 'empty' | 'dummy' };

/** The Basic Profile action of a row where the element sits (composite actions by type, profile.ts basicActionAt). */
function basicAt(node: DicomNode, row: AnnexERow, session: Session, path: readonly string[]): EffectiveBasic {
  return basicActionAt(row, node.vr, { iod: session.iod, path, tag: node.tag, sequence: node.items !== undefined });
}

type EffectiveBasic = ReturnType<typeof basicActionAt>;

function decide(node: DicomNode, row: AnnexERow | undefined, session: Session, path: readonly string[]): Decision {
  if (!row) return { kind: 'keep' };
  const { profile } = session;
  const action = effectiveAction(row, profile, node.vr);
  if (action === 'keep') return { kind: 'keep' };
  if (action === 'clean') {
    // Cleaning means shifting dates (modified dates; a time survives a whole-day shift) or cleaning a description by
    // vocabulary. Free text (comments, history, occupation, reasons) and anything else that cannot be cleaned
    // (binary maker notes, code sequences) takes the Basic Profile action: it is never guessed safe.
    if (!node.items && (node.vr === 'DA' || node.vr === 'DT')) return { kind: 'shift' };
    if (!node.items && node.vr === 'TM') return { kind: 'keep' };
    const basic = basicAt(node, row, session, path);
    if (!node.items && TEXT_VRS.has(node.vr) && DESCRIPTOR_KEYWORDS.has(row.keyword))
      return { kind: 'describe', fallback: basic === 'dummy' ? 'dummy' : basic === 'empty' ? 'empty' : 'remove' };
    return decideBasic(node, basic);
  }
  return decideBasic(node, basicAt(node, row, session, path));
}

function decideBasic(node: DicomNode, action: EffectiveBasic): Decision {
  if (action === 'keep' || action === 'clean') return { kind: 'keep' };
  if (action === 'remove') return { kind: 'remove' };
  // A reference sequence that stays (D where Type 1, U of X/Z/U*) keeps its items, each de-identified in turn.
  if (action === 'items') return { kind: 'items' };
  // Z (or Z/D) allows a dummy: a keyed pseudonym, the same for a patient across uploads to one hospital.
  if (node.tag === TAG.PatientName || node.tag === TAG.PatientID) return { kind: 'pseudonym' };
  if (action === 'empty' || (node.items && action === 'dummy')) return { kind: 'empty' };
  // A dummy UID (D on a UI, e.g. Annotation Group UID) is a derived one: a valid UID, mapped like every other.
  if (action === 'dummy' && node.vr === 'UI') return { kind: 'uid' };
  return { kind: action };
}

/** Writes one standard element as its decision says (or nothing, when the element goes). */
function applyDecision(
  out: ByteWriter,
  node: DicomNode,
  decision: Decision,
  encoding: Encoding,
  session: Session,
  path: readonly string[],
): void {
  const { source, summary } = session;
  switch (decision.kind) {
    case 'remove':
      summary.removed += 1;
      return;
    case 'pseudonym':
      summary.replaced += 1;
      writeText(out, node, session.keys.pseudonym, encoding);
      return;
    case 'empty':
      summary.emptied += 1;
      if (node.items) writeEmptySequence(out, node, encoding);
      else writeValue(out, node, EMPTY, encoding);
      return;
    case 'dummy':
      summary.replaced += 1;
      writeDummy(out, node, encoding);
      return;
    case 'uid': {
      const replaced = nodeText(source, node)
        .split('\\')
        .map((uid) => (uid ? newUid(session, uid.trim()) : ''))
        .join('\\');
      summary.uidsReplaced += 1;
      writeText(out, node, replaced, encoding);
      return;
    }
    case 'shift': {
      const shifted = nodeText(source, node)
        .split('\\')
        .map((date) => shiftDate(date.trim(), session.keys.dateShiftDays))
        .join('\\');
      summary.replaced += 1;
      writeText(out, node, shifted, encoding);
      return;
    }
    case 'describe': {
      const value = nodeText(source, node);
      const cleaned = cleanDescription(value);
      if (cleaned === '' && value !== '') {
        applyDecision(out, node, { kind: decision.fallback }, encoding, session, path);
        return;
      }
      summary.kept += 1;
      if (cleaned === value) out.bytes(source.subarray(node.start, node.end));
      else {
        summary.replaced += 1;
        writeText(out, node, cleaned, encoding);
      }
      return;
    }
    case 'items':
      summary.replaced += 1;
      writeSequenceNode(out, node, encoding, session, path);
      return;
    case 'keep':
      writeKept(out, node, encoding, session, path);
  }
}

const EMPTY = new Uint8Array(0);

/** A kept standard element: sequences are rewritten item by item; text loses the file's identifying strings. */
function writeKept(
  out: ByteWriter,
  node: DicomNode,
  encoding: Encoding,
  session: Session,
  path: readonly string[],
): void {
  if (ANNEX_E_BY_TAG.has(node.tag)) session.summary.kept += 1;
  if (node.items) {
    writeSequenceNode(out, node, encoding, session, path);
    return;
  }
  if (TEXT_VRS.has(node.vr) && node.valueLength > 0 && !session.identifiers.empty) {
    const value = nodeText(session.source, node);
    const scrubbed = session.identifiers.remove(value);
    if (scrubbed !== value) {
      session.summary.replaced += 1;
      writeText(out, node, scrubbed.replace(/ {2,}/g, ' ').trim(), encoding);
      return;
    }
  }
  out.bytes(session.source.subarray(node.start, node.end));
}

/**
 * What happens to a private data element (not a creator): undefined when it goes (as the private-attributes choice
 * says, or when its value is not clean), 'copy' when it stays as it is, or the bytes to write in its place.
 */
function privateOutcome(node: DicomNode, creator: string, session: Session): 'copy' | Uint8Array | undefined {
  const mode = session.profile.privateAttributes;
  const entry = mode === 'safe' ? safePrivateEntry(creator, node.group, node.element & 0xff) : undefined;
  if (mode === 'none' || (mode === 'safe' && !entry)) return undefined;
  if (node.items) return entry ? undefined : 'copy';
  const value = session.source.subarray(node.valueStart, node.end);
  if (entry && !isSafePrivateValue(entry, node.vr, value)) return undefined;
  // Belt and braces: a kept private value that carries one of the file's identifying strings goes, except a binary
  // header (Siemens CSA), whose copies of the station name or serial number are overwritten in place, same length.
  const text = bytesToBinaryString(value);
  if (!session.identifiers.contains(text)) return 'copy';
  if (entry?.vr !== 'OB') return undefined;
  const header = session.source.subarray(node.start, node.valueStart);
  const masked = binaryStringToBytes(session.identifiers.mask(text));
  const out = new Uint8Array(header.length + masked.length);
  out.set(header);
  out.set(masked, header.length);
  return out;
}

const blockKey = (group: number, block: number) => group * 0x100 + block;
const tagNumber = (node: DicomNode) => node.group * 0x10000 + node.element;

function inTagOrder(elements: DicomNode[]): DicomNode[] {
  for (let i = 1; i < elements.length; i++) {
    if (tagNumber(elements[i]!) < tagNumber(elements[i - 1]!))
      return [...elements].sort((a, b) => tagNumber(a) - tagNumber(b));
  }
  return elements;
}

/** The value a top-level UID attribute has in the output: its replacement, or itself when UIDs are retained. */
export function outputUid(node: DicomNode, session: Session): string {
  const value = nodeText(session.source, node);
  const decision = decide(node, ANNEX_E_BY_TAG.get(node.tag), session, []);
  return decision.kind === 'uid' ? newUid(session, value.trim()) : value;
}

/**
 * Attributes that PS3.3 allows only while another is present (Type 1C, "may not be present otherwise"), where Table
 * E.1-1 keeps the first (D) but removes the other (X): the first goes with it, so the object stays valid.
 * Clinical Trial Protocol Ethics Committee Name (0012,0081) is required if, and only if, the Approval Number
 * (0012,0082) is present (Clinical Trial Subject Module, PS3.3 C.7.1.3).
 */
const PRESENT_ONLY_WITH: ReadonlyMap<string, string> = new Map([['00120081', '00120082']]);

/**
 * Applies the profile to one dataset (the top level or a sequence item), writing the result in tag order. At the top
 * level the de-identification record (PS3.15 E.1.1) takes the place of any the input had. `path` holds the tags of
 * the sequences the dataset sits in, outermost first (empty at the top level).
 */
export function writeDataSet(
  out: ByteWriter,
  elements: DicomNode[],
  encoding: Encoding,
  session: Session,
  path: readonly string[],
): void {
  const { source, summary } = session;
  const depth = path.length;
  const ordered = inTagOrder(elements);
  const creators = new Map<number, string>();
  for (const node of ordered) {
    if (node.group % 2 === 1 && node.element >= 0x10 && node.element <= 0xff)
      creators.set(blockKey(node.group, node.element), nodeText(source, node));
  }
  // Private blocks first: a creator is written only when an element of its block stays.
  const keptPrivate = new Map<DicomNode, 'copy' | Uint8Array>();
  const keptBlocks = new Set<number>();
  for (const node of ordered) {
    if (node.group % 2 === 0 || node.element <= 0xff) continue;
    const block = blockKey(node.group, node.element >> 8);
    const outcome = privateOutcome(node, creators.get(block) ?? '', session);
    if (outcome) {
      keptPrivate.set(node, outcome);
      keptBlocks.add(block);
    }
  }
  let record = depth === 0 ? 0 : RECORD_TAGS.length;
  for (const node of ordered) {
    while (record < RECORD_TAGS.length && RECORD_TAGS[record]! < node.tag)
      writeRecordElement(out, RECORD_TAGS[record++]!, session.profile, encoding);
    if (node.element === 0x0000 || node.group === 0xfffc || node.group === 0xfffa) {
      // Group lengths are stale after edits (retired in PS3.5 7.2); trailing padding and signatures go too.
      summary.removed += 1;
      continue;
    }
    if (node.group % 2 === 1) {
      const kept =
        node.element < 0x10
          ? false
          : node.element <= 0xff
            ? keptBlocks.has(blockKey(node.group, node.element))
            : keptPrivate.has(node);
      if (!kept) {
        summary.removed += 1;
        continue;
      }
      if (node.element > 0xff) summary.kept += 1;
      const outcome = keptPrivate.get(node);
      if (node.items) writeSequenceNode(out, node, encoding, session, path);
      else out.bytes(outcome instanceof Uint8Array ? outcome : source.subarray(node.start, node.end));
      continue;
    }
    if ((node.group & 0xff00) === 0x5000 || (node.group & 0xff00) === 0x6000) {
      // PS3.15 Table E.1-1: Curve Data (50xx,xxxx) → X, Overlay Data/Comments (60xx,3000/4000) → X. The rest of the
      // overlay group goes too, so no overlay plane points at data that is gone.
      summary.removed += 1;
      continue;
    }
    // The de-identification record is written afresh at the top level.
    if (depth === 0 && RECORD_TAGS.includes(node.tag)) continue;
    const partner = PRESENT_ONLY_WITH.get(node.tag);
    const partnerNode = partner === undefined ? undefined : ordered.find((other) => other.tag === partner);
    const partnerGoes =
      partnerNode !== undefined && decide(partnerNode, ANNEX_E_BY_TAG.get(partner!), session, path).kind === 'remove';
    const decision: Decision = partnerGoes
      ? { kind: 'remove' }
      : decide(node, ANNEX_E_BY_TAG.get(node.tag), session, path);
    applyDecision(out, node, decision, encoding, session, path);
  }
  while (record < RECORD_TAGS.length) writeRecordElement(out, RECORD_TAGS[record++]!, session.profile, encoding);
}

/** Nesting is bounded when the file is read (tokenize.ts, DICOM_LIMITS.maxSequenceDepth), so recursion is too. */
function writeSequenceNode(
  out: ByteWriter,
  node: DicomNode,
  outer: Encoding,
  session: Session,
  path: readonly string[],
): void {
  const inner = node.itemEncoding!;
  const items = node.items!;
  const itemPath = [...path, node.tag];
  writeSequence(out, node, items, outer, inner, (index) =>
    writeDataSet(out, items[index]!.elements, inner, session, itemPath),
  );
}
