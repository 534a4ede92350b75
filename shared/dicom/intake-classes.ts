import { SOP_CLASS } from './sop-classes.ts';
import { TRANSFER_SYNTAX } from './parse.ts';

/**
 * What DICOM intake (STOW-RS and C-STORE, docs/dicom-intake.md) accepts: the storage SOP classes of the images the
 * engine converts and classifies (PS3.4 Annex B), and the transfer syntaxes it reads (PS3.5 Annex A): the native ones,
 * deflated, and the encapsulated ones dcm2niix decodes (JPEG, JPEG-LS, JPEG 2000, RLE).
 */
export const INTAKE_SOP_CLASSES: ReadonlySet<string> = new Set([
  SOP_CLASS.MR_IMAGE,
  SOP_CLASS.ENHANCED_MR_IMAGE,
  SOP_CLASS.CT_IMAGE,
  /** Enhanced CT Image Storage. */
  '1.2.840.10008.5.1.4.1.1.2.1',
  SOP_CLASS.PET_IMAGE,
  /** Enhanced PET Image Storage. */
  '1.2.840.10008.5.1.4.1.1.130',
  SOP_CLASS.SECONDARY_CAPTURE,
  SOP_CLASS.MULTIFRAME_SINGLE_BIT_SECONDARY_CAPTURE,
  SOP_CLASS.MULTIFRAME_GRAYSCALE_BYTE_SECONDARY_CAPTURE,
  SOP_CLASS.MULTIFRAME_GRAYSCALE_WORD_SECONDARY_CAPTURE,
  SOP_CLASS.MULTIFRAME_TRUE_COLOR_SECONDARY_CAPTURE,
]);

export const INTAKE_TRANSFER_SYNTAXES: readonly string[] = [
  TRANSFER_SYNTAX.explicitLittle,
  TRANSFER_SYNTAX.implicitLittle,
  TRANSFER_SYNTAX.deflatedExplicitLittle,
  TRANSFER_SYNTAX.explicitBig,
  /** JPEG Baseline (Process 1), JPEG Lossless (Process 14 and its first-order prediction). */
  '1.2.840.10008.1.2.4.50',
  '1.2.840.10008.1.2.4.57',
  '1.2.840.10008.1.2.4.70',
  /** JPEG-LS lossless and near-lossless. */
  '1.2.840.10008.1.2.4.80',
  '1.2.840.10008.1.2.4.81',
  /** JPEG 2000 lossless only, and JPEG 2000. */
  '1.2.840.10008.1.2.4.90',
  '1.2.840.10008.1.2.4.91',
  /** RLE Lossless. */
  '1.2.840.10008.1.2.5',
];
