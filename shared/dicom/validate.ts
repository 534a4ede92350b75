import { DicomParseError, parseDicom, type ParsedDicom } from './parse.ts';

export type DicomCheck =
  { valid: true; parsed: ParsedDicom } | { valid: false; message: 'Not a DICOM file' | 'DICOM parsing failed' };

/**
 * The record's validity rule (section 5 / DESIGN.md "Validate"): DICM at offset 128, else a parse, else a lenient
 * parse. Returns the per-file message of the upload wizard (record section 8) for anything else. Never throws.
 */
export function checkDicom(bytes: Uint8Array): DicomCheck {
  try {
    return { valid: true, parsed: parseDicom(bytes) };
  } catch (error) {
    if (error instanceof DicomParseError && error.message === 'Not a DICOM file')
      return { valid: false, message: 'Not a DICOM file' };
    return { valid: false, message: 'DICOM parsing failed' };
  }
}
