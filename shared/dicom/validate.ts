import type { DicomLimitCode } from './errors.ts';
import {
  DicomLimitError,
  DicomParseError,
  parseDicom,
  parseDicomHeader,
  type DicomHeader,
  type ParsedDicom,
} from './parse.ts';
import { parserKey, TAG } from './tags.ts';

type DicomRejection = {
  valid: false;
  message: 'Not a DICOM file' | 'DICOM parsing failed';
  limit?: DicomLimitCode;
};

export type DicomCheck = { valid: true; parsed: ParsedDicom } | DicomRejection;

/**
 * The validity rule: DICM at offset 128, else a parse, else a lenient parse. Returns the upload wizard's per-file
 * message for anything else; a file over a work limit (shared/dicom/limits.ts) fails to parse, and `limit` names
 * the catalogue entry that says which. Never throws.
 */
export function checkDicom(bytes: Uint8Array): DicomCheck {
  try {
    return { valid: true, parsed: parseDicom(bytes) };
  } catch (error) {
    if (error instanceof DicomLimitError) return { valid: false, message: 'DICOM parsing failed', limit: error.code };
    if (error instanceof DicomParseError && error.message === 'Not a DICOM file')
      return { valid: false, message: 'Not a DICOM file' };
    return { valid: false, message: 'DICOM parsing failed' };
  }
}

export type DicomHeaderCheck = { valid: true; header: DicomHeader } | DicomRejection;

/**
 * docs/domain.md#uploads: header-only reading starts with the first 16 KiB (most single-frame headers fit) and reads 4
 * times more while the header goes on.
 */
export const HEADER_READ = { firstBytes: 16 * 1024, growth: 4 } as const;

/**
 * checkDicom for a file that can be read by its first `end` bytes (a browser File's slice): the same answer and the
 * same header elements as checkDicom on the whole file, reading only the bytes before the Pixel Data where that is
 * enough to know (parseDicomHeader), and the whole file where it is not. It starts with `firstBytes` (see
 * firstBytesAfter). Never throws but for a failed read.
 */
export async function checkDicomHeader(
  fileSize: number,
  read: (end: number) => Promise<Uint8Array>,
  firstBytes: number = HEADER_READ.firstBytes,
): Promise<DicomHeaderCheck> {
  let end = Math.min(fileSize, firstBytes);
  for (;;) {
    const bytes = await read(end);
    if (end >= fileSize) {
      const check = checkDicom(bytes);
      if (!check.valid) return check;
      return {
        valid: true,
        header: { dataSet: check.parsed.dataSet, transferSyntaxUID: check.parsed.transferSyntaxUID },
      };
    }
    const answer = parseDicomHeader(bytes, fileSize);
    if ('header' in answer) return { valid: true, header: answer.header };
    end = answer.read === 'whole' ? fileSize : Math.min(fileSize, end * HEADER_READ.growth);
  }
}

const PAGE = 4096;

/**
 * Where to start reading the next file of a study: the files of a series share their header's layout, so a header
 * that needed more than the first bytes is read at once next time (its length, 1 KiB spare, rounded up to 4 KiB).
 * Never less than HEADER_READ.firstBytes; `previous` after a rejected file or one without Pixel Data.
 */
export function firstBytesAfter(check: DicomHeaderCheck, previous: number): number {
  const pixelData = check.valid ? check.header.dataSet.elements[parserKey(TAG.PixelData)] : undefined;
  if (!pixelData) return previous;
  return Math.max(HEADER_READ.firstBytes, Math.ceil((pixelData.dataOffset + 1024) / PAGE) * PAGE);
}
