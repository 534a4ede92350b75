import { deflateRaw } from 'pako';
import { concatBytes } from '#shared/dicom/bytes.ts';
import type { AnonymizationOptions } from '#shared/vocabulary/deidentification.ts';
import { inflateBounded } from '#shared/dicom/limits.ts';
import { DicomParseError, TRANSFER_SYNTAX, gunzipIfNeeded, hasDicmPrefix, parseDicom } from '#shared/dicom/parse.ts';
import { SECONDARY_CAPTURE_SOP_CLASSES } from '#shared/dicom/sop-classes.ts';
import { TAG } from '#shared/dicom/tags.ts';
import { iodTypesFor } from './iod-types.ts';
import { patientKeys } from './keys.ts';
import { resolveProfile } from './profile.ts';
import { collectIdentifiers, outputUid, writeDataSet, type DeidentifySummary, type Session } from './rules.ts';
import { IdentifierIndex } from './text.ts';
import { nodeText, readDataSet, readMetaGroup, type DicomNode, type Encoding } from './tokenize.ts';
import { ByteWriter, writePreambleAndMeta } from './writer.ts';

export { DEIDENTIFICATION_PROFILE } from './profile.ts';
export type { DeidentifySummary } from './rules.ts';
export { DESCRIPTOR_WORDS, cleanDescription, isDescriptorWord } from './vocabulary.ts';

export type DeidentifyContext = { secret: string; hospitalId: string; options: AnonymizationOptions; uidRoot?: string };
export type DeidentifyResult = {
  bytes: Uint8Array;
  studyInstanceUID: string;
  seriesInstanceUID: string;
  sopInstanceUID: string;
  burnedInAnnotation: boolean;
  secondaryCapture: boolean;
  summary: DeidentifySummary;
};

const SYNTAX_ENCODING: Record<string, Encoding> = {
  [TRANSFER_SYNTAX.implicitLittle]: { explicit: false, littleEndian: true },
  [TRANSFER_SYNTAX.explicitBig]: { explicit: true, littleEndian: false },
};
export const encodingOf = (syntax: string): Encoding =>
  SYNTAX_ENCODING[syntax] ?? { explicit: true, littleEndian: true };

const find = (elements: DicomNode[], tag: string) => elements.find((element) => element.tag === tag);
const findText = (source: Uint8Array, elements: DicomNode[], tag: string): string | undefined => {
  const node = find(elements, tag);
  return node ? nodeText(source, node) : undefined;
};

export type DicomInput = {
  source: Uint8Array;
  elements: DicomNode[];
  transferSyntaxUID: string;
  metaSopClass?: string;
};

/** The dataset's elements, whatever the wrapping: gzip, Part 10 or raw, deflated or not (each inflate bounded). */
export function readInput(bytes: Uint8Array): DicomInput {
  const plain = gunzipIfNeeded(bytes);
  let transferSyntaxUID: string;
  let datasetStart: number;
  let metaSopClass: string | undefined;
  if (hasDicmPrefix(plain)) {
    const meta = readMetaGroup(plain, 132);
    transferSyntaxUID = findText(plain, meta.elements, TAG.TransferSyntaxUID) ?? TRANSFER_SYNTAX.explicitLittle;
    metaSopClass = findText(plain, meta.elements, TAG.MediaStorageSOPClassUID);
    datasetStart = meta.next;
  } else {
    const parsed = parseDicom(plain);
    if (parsed.lenient) throw new DicomParseError('DICOM parsing failed');
    transferSyntaxUID = parsed.transferSyntaxUID;
    datasetStart = 0;
  }
  let source = plain;
  if (transferSyntaxUID === TRANSFER_SYNTAX.deflatedExplicitLittle) {
    source = inflateBounded(plain.subarray(datasetStart), true);
    datasetStart = 0;
  }
  let elements: DicomNode[];
  try {
    elements = readDataSet(source, datasetStart, encodingOf(transferSyntaxUID)).elements;
  } catch (error) {
    if (error instanceof DicomParseError) throw error;
    throw new DicomParseError('DICOM parsing failed');
  }
  if (elements.length === 0) throw new DicomParseError('Not a DICOM file');
  return { source, elements, transferSyntaxUID, ...(metaSopClass ? { metaSopClass } : {}) };
}

/**
 * De-identifies one DICOM file with the PS3.15 Annex E Basic Profile (edition 2024b) and the chosen options, applied
 * to every attribute at every sequence depth, the file meta group and private blocks included. The output keeps the
 * input's transfer syntax; every byte that is kept (pixel data above all) is copied unchanged. UIDs are replaced by
 * HMAC-SHA256(secret, hospitalId + UID) as a 2.25 UID, so the same study gets the same UIDs in every file and on
 * every re-upload, with no state. A gzip input gives plain DICOM out. Work is linear in the file's size and bounded
 * (shared/dicom/limits.ts).
 * @throws DicomParseError ("Not a DICOM file" / "DICOM parsing failed") for input it cannot rewrite faithfully;
 *   DicomLimitError (a DicomParseError with a catalogue code) for input over a work limit.
 * @example deidentifyDicom(bytes, { secret, hospitalId: 'northside', options: AnonymizationOptionsSchema.parse({}) })
 */
export function deidentifyDicom(bytes: Uint8Array, context: DeidentifyContext): DeidentifyResult {
  const { source, elements, transferSyntaxUID, metaSopClass } = readInput(bytes);
  const encoding = encodingOf(transferSyntaxUID);
  const profile = resolveProfile(context.options);
  const session: Session = {
    source,
    profile,
    secret: context.secret,
    hospitalId: context.hospitalId,
    uidRoot: context.uidRoot ?? '2.25.',
    keys: patientKeys(context.secret, context.hospitalId, findText(source, elements, TAG.PatientID) ?? ''),
    identifiers: new IdentifierIndex(collectIdentifiers(elements, source, profile)),
    summary: { removed: 0, emptied: 0, replaced: 0, uidsReplaced: 0, kept: 0 },
    uids: new Map(),
    iod: iodTypesFor(findText(source, elements, TAG.SOPClassUID)?.trim() ?? metaSopClass?.trim() ?? ''),
  };
  const uid = (tag: string) => {
    const node = find(elements, tag);
    return node ? outputUid(node, session) : '';
  };
  const sopClassUID = findText(source, elements, TAG.SOPClassUID) ?? metaSopClass ?? '';
  const sopInstanceUID = uid(TAG.SOPInstanceUID);
  // The output is about the input's size: one buffer of that size, grown only if edits make it longer.
  const out = new ByteWriter(source.length + 4096);
  writePreambleAndMeta(out, sopClassUID, sopInstanceUID, transferSyntaxUID);
  const datasetStart = out.length;
  writeDataSet(out, elements, encoding, session, []);
  const written = out.result();
  const output =
    transferSyntaxUID === TRANSFER_SYNTAX.deflatedExplicitLittle
      ? concatBytes([written.subarray(0, datasetStart), deflateRaw(written.subarray(datasetStart))])
      : written.slice();
  return {
    bytes: output,
    studyInstanceUID: uid(TAG.StudyInstanceUID),
    seriesInstanceUID: uid(TAG.SeriesInstanceUID),
    sopInstanceUID,
    burnedInAnnotation: (findText(source, elements, TAG.BurnedInAnnotation) ?? '').toUpperCase() === 'YES',
    secondaryCapture: SECONDARY_CAPTURE_SOP_CLASSES.has(sopClassUID),
    summary: session.summary,
  };
}
