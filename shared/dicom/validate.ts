import type { DicomLimitCode } from './errors.ts';
import { DicomLimitError, DicomParseError, parseDicom, type ParsedDicom } from './parse.ts';

export type DicomCheck =
  | { valid: true; parsed: ParsedDicom }
  | { valid: false; message: 'Not a DICOM file' | 'DICOM parsing failed'; limit?: DicomLimitCode };

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
