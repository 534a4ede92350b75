import { catalogueMessage, type ErrorCode } from '#shared/vocabulary/errors.ts';

/** A file the engine cannot read or rewrite; the message is the catalogue's ("Not a DICOM file", "DICOM parsing failed"). */
export class DicomParseError extends Error {
  override name = 'DicomParseError';
}

export type DicomLimitCode = Extract<
  ErrorCode,
  'DICOM_DECOMPRESSED_TOO_LARGE' | 'DICOM_TOO_MANY_ELEMENTS' | 'DICOM_NESTED_TOO_DEEP'
>;

/**
 * A file over one of the engine's work limits (shared/dicom/limits.ts). It is a parse error to every caller that only
 * knows those, with its own catalogue code and wording for the ones that tell them apart.
 */
export class DicomLimitError extends DicomParseError {
  override name = 'DicomLimitError';
  constructor(
    readonly code: DicomLimitCode,
    readonly limit: number,
  ) {
    super(catalogueMessage(code, { n: limit }));
  }
}
