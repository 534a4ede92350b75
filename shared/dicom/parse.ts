import dicomParser from 'dicom-parser';
import { DicomLimitError, DicomParseError } from './errors.ts';
import { inflateBounded } from './limits.ts';
import { TAG, parserKey } from './tags.ts';

/**
 * Reading DICOM bytes into a dicom-parser DataSet. Browser-safe: no node:* imports, Uint8Array only.
 * Handles gzip-compressed files (.dcm.gz), the deflated transfer syntax, explicit/implicit VR, big endian,
 * encapsulated pixel data (not decoded), files without a preamble, and trailing bytes after the dataset.
 */
export type ParsedDicom = {
  dataSet: dicomParser.DataSet;
  transferSyntaxUID: string;
  /** The bytes the DataSet points into (after gunzip; for the deflated syntax, after inflating). */
  bytes: Uint8Array;
  /** True when the dataset was recovered from a file that did not parse to its end. */
  lenient?: boolean;
};

export { DicomLimitError, DicomParseError } from './errors.ts';

export const TRANSFER_SYNTAX = {
  implicitLittle: '1.2.840.10008.1.2',
  explicitLittle: '1.2.840.10008.1.2.1',
  deflatedExplicitLittle: '1.2.840.10008.1.2.1.99',
  explicitBig: '1.2.840.10008.1.2.2',
} as const;

const GZIP_MAGIC_0 = 0x1f;
const GZIP_MAGIC_1 = 0x8b;

export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length > 2 && bytes[0] === GZIP_MAGIC_0 && bytes[1] === GZIP_MAGIC_1;
}

/** PS3.10 7.1: a 128-byte preamble followed by "DICM". */
export function hasDicmPrefix(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 132 && bytes[128] === 0x44 && bytes[129] === 0x49 && bytes[130] === 0x43 && bytes[131] === 0x4d
  );
}

/**
 * Un-gzips when the bytes are gzip; returns them unchanged otherwise.
 * @throws DicomParseError on a broken gzip stream; DicomLimitError when the output passes the inflate limit.
 */
export function gunzipIfNeeded(bytes: Uint8Array): Uint8Array {
  if (!isGzip(bytes)) return bytes;
  return inflateBounded(bytes, false);
}

/** dicom-parser's inflater hook: the deflated syntax compresses everything after the file meta group. */
function inflateDataSet(byteArray: Uint8Array, position: number): Uint8Array {
  const inflated = inflateBounded(byteArray.subarray(position), true);
  const joined = new Uint8Array(position + inflated.length);
  joined.set(byteArray.subarray(0, position), 0);
  joined.set(inflated, position);
  return joined;
}

type DicomParserError = { exception?: unknown; dataSet?: dicomParser.DataSet };

/** A work limit hit while dicom-parser ran (it wraps what its inflater throws) is passed on, never read as damage. */
function rethrowLimit(error: unknown): void {
  if (error instanceof DicomLimitError) throw error;
  const inner =
    error && typeof error === 'object' && 'exception' in error ? (error as DicomParserError).exception : undefined;
  if (inner instanceof DicomLimitError) throw inner;
}

function partialDataSet(error: unknown): dicomParser.DataSet | undefined {
  if (error && typeof error === 'object' && 'dataSet' in error) return (error as DicomParserError).dataSet;
  return undefined;
}

/** A recovered dataset is only worth keeping when it holds real image attributes, not noise that happened to parse. */
function looksLikeDicom(dataSet: dicomParser.DataSet | undefined): dataSet is dicomParser.DataSet {
  if (!dataSet) return false;
  const tags = Object.keys(dataSet.elements);
  let known = 0;
  for (const tag of tags) {
    const group = tag.slice(1, 5);
    if (group === '0008' || group === '0010' || group === '0020' || group === '0028' || group === '0018') known += 1;
  }
  return (
    known >= 2 &&
    [TAG.SOPClassUID, TAG.SOPInstanceUID, TAG.SeriesInstanceUID, TAG.Modality].some(
      (tag) => dataSet.elements[parserKey(tag)] !== undefined,
    )
  );
}

function transferSyntaxOf(dataSet: dicomParser.DataSet, fallback: string): string {
  const value = dataSet.string(parserKey(TAG.TransferSyntaxUID));
  return value ? value.replace(/\0/g, '').trim() : fallback;
}

/** Tries the raw (no preamble, no meta group) dataset in each uncompressed syntax, as the lenient rule allows. */
function parseRaw(bytes: Uint8Array, strict: boolean): ParsedDicom | undefined {
  for (const syntax of [TRANSFER_SYNTAX.implicitLittle, TRANSFER_SYNTAX.explicitLittle]) {
    try {
      const dataSet = dicomParser.parseDicom(bytes, { TransferSyntaxUID: syntax });
      if (looksLikeDicom(dataSet)) return { dataSet, transferSyntaxUID: syntax, bytes };
    } catch (error) {
      const partial = partialDataSet(error);
      if (!strict && looksLikeDicom(partial))
        return { dataSet: partial, transferSyntaxUID: syntax, bytes, lenient: true };
    }
  }
  return undefined;
}

/** Strict parse of a Part 10 file; undefined when dicom-parser cannot reach the end of it. */
function parsePart10(bytes: Uint8Array, strict: boolean): ParsedDicom | undefined {
  try {
    const dataSet = dicomParser.parseDicom(bytes, { inflater: inflateDataSet });
    const syntax = transferSyntaxOf(dataSet, TRANSFER_SYNTAX.explicitLittle);
    return { dataSet, transferSyntaxUID: syntax, bytes: dataSet.byteArray };
  } catch (error) {
    rethrowLimit(error);
    const partial = partialDataSet(error);
    if (!strict && partial && looksLikeDicom(partial)) {
      return {
        dataSet: partial,
        transferSyntaxUID: transferSyntaxOf(partial, TRANSFER_SYNTAX.explicitLittle),
        bytes: partial.byteArray,
        lenient: true,
      };
    }
    return undefined;
  }
}

/**
 * Parses DICOM bytes (gzip and deflate handled). Follows the validity rule of docs/domain.md#dicom-validity: a Part 10 file (DICM at 128)
 * is parsed strictly and then leniently (a truncated or over-long file keeps the elements read before the damage);
 * bytes without the prefix are tried as a raw dataset, strictly then leniently.
 * @throws DicomParseError with the catalogue wording: "Not a DICOM file" or "DICOM parsing failed".
 */
export function parseDicom(bytes: Uint8Array): ParsedDicom {
  const plain = gunzipIfNeeded(bytes);
  if (hasDicmPrefix(plain)) {
    const parsed = parsePart10(plain, true) ?? parsePart10(plain, false);
    if (parsed) return parsed;
    throw new DicomParseError('DICOM parsing failed');
  }
  const parsed = parseRaw(plain, true) ?? parseRaw(plain, false);
  if (parsed) return parsed;
  throw new DicomParseError('Not a DICOM file');
}

/**
 * The file's bytes without its top-level Pixel Data (7FE0,0010): what header readers such as the classifier need,
 * so the headers of a whole series can be held together without holding its pixel data. Files in the deflated
 * syntax are returned as given, since their stored bytes are compressed.
 */
export function withoutPixelData(parsed: ParsedDicom, original: Uint8Array): Uint8Array {
  const pixelData = parsed.dataSet.elements[parserKey(TAG.PixelData)];
  if (!pixelData || parsed.transferSyntaxUID === TRANSFER_SYNTAX.deflatedExplicitLittle) return original;
  // Tag (4) + length (4) in implicit VR; tag (4) + VR (2) + reserved (2) + length (4) in explicit VR (OB/OW).
  const elementHeader = parsed.transferSyntaxUID === TRANSFER_SYNTAX.implicitLittle ? 8 : 12;
  return parsed.bytes.slice(0, pixelData.dataOffset - elementHeader);
}

/** The elements of a file up to its Pixel Data, read from its first bytes (parseDicomHeader). */
export type DicomHeader = Pick<ParsedDicom, 'dataSet' | 'transferSyntaxUID'>;

/**
 * What parseDicomHeader answers: the header, or which bytes it needs to answer: `more` of the file's start (the
 * header, or an element of it, goes past the bytes given), or the `whole` file (only a full parse can tell).
 */
export type HeaderRead = { header: DicomHeader } | { read: 'more' | 'whole' };

const PIXEL_DATA_KEY = parserKey(TAG.PixelData);

class NeedsWholeFile extends Error {}

/** PS3.5 7.5: an item (FFFE,E000) or sequence delimitation (FFFE,E0DD) tag, little endian. */
function isItemTag(bytes: Uint8Array, offset: number): boolean {
  return (
    bytes[offset] === 0xfe &&
    bytes[offset + 1] === 0xff &&
    bytes[offset + 3] === 0xe0 &&
    (bytes[offset + 2] === 0x00 || bytes[offset + 2] === 0xdd)
  );
}

/**
 * Reads the header of a Part 10 file of `fileSize` bytes from its first bytes (`start`): every element before the
 * top-level Pixel Data (7FE0,0010), parsed by dicom-parser as parseDicom parses the whole file. It answers only where
 * the whole file would parse strictly to the same elements: an uncompressed Part 10 file (DICM at 128, neither gzip
 * nor the deflated syntax) whose Pixel Data has a defined length that ends exactly where the file ends. Anything
 * else (encapsulated or undefined-length Pixel Data, a truncated file, bytes after the Pixel Data, no DICM prefix)
 * answers `whole`, so the validity rule (docs/domain.md#dicom-validity), lenient parse included, is applied by
 * parseDicom to the whole file, and the answer is the same as a full read's. A header damaged within `start` answers
 * `more` until the whole file is read, for the same reason.
 */
export function parseDicomHeader(start: Uint8Array, fileSize: number): HeaderRead {
  if (start.length >= fileSize || isGzip(start) || !hasDicmPrefix(start)) return { read: 'whole' };
  let dataSet: dicomParser.DataSet;
  try {
    dataSet = dicomParser.parseDicom(start, {
      untilTag: PIXEL_DATA_KEY,
      inflater: () => {
        throw new NeedsWholeFile();
      },
    });
  } catch (error) {
    if (error instanceof NeedsWholeFile) return { read: 'whole' };
    const inner = error && typeof error === 'object' && 'exception' in error ? error.exception : undefined;
    if (inner instanceof NeedsWholeFile) return { read: 'whole' };
    return { read: 'more' };
  }
  // dicom-parser stops at the top-level Pixel Data; without one it stopped at the end of the bytes given.
  const pixelData = dataSet.elements[PIXEL_DATA_KEY];
  if (!pixelData) return { read: 'more' };
  if (pixelData.hadUndefinedLength || pixelData.vr === 'SQ' || pixelData.dataOffset + pixelData.length !== fileSize)
    return { read: 'whole' };
  if (pixelData.vr === undefined) {
    // Implicit VR: a full parse peeks at the value's first 4 bytes and reads a sequence when they are an item tag.
    if (pixelData.dataOffset + 4 > start.length) return { read: 'more' };
    if (isItemTag(start, pixelData.dataOffset)) return { read: 'whole' };
  }
  return { header: { dataSet, transferSyntaxUID: transferSyntaxOf(dataSet, TRANSFER_SYNTAX.explicitLittle) } };
}
