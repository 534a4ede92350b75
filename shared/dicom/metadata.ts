import type { ParsedDicom } from './parse.ts';
import { sha256, uidFromDigest, utf8 } from './hash.ts';
import { TAG, parserKey } from './tags.ts';

/** docs/domain.md#metadata-read-from-files. Browser-safe. */
export type SeriesFileMetadata = {
  seriesInstanceUID: string;
  studyInstanceUID: string;
  modality: string;
  seriesNumber: number;
  seriesDescription: string;
  imageType: string[];
  patientID: string;
  studyDate: string;
  instanceNumber: number;
  sliceLocation?: number;
  patientName: string;
  studyDescription: string;
  sopInstanceUID: string;
  fileSize: number;
  fileName: string;
};

/** What the metadata is read from: a whole file's parse, or its header alone (checkDicomHeader). */
type HeaderElements = Pick<ParsedDicom, 'dataSet'>;

/** Defaults when an attribute is missing (docs/domain.md#metadata-read-from-files). */
export const METADATA_DEFAULTS = {
  seriesDescription: 'Unknown Series',
  modality: 'Unknown',
  seriesNumber: 1,
  instanceNumber: 1,
  patientName: 'Unknown Patient',
  studyDescription: 'Unknown Study',
} as const;

function text(parsed: HeaderElements, tag: string): string | undefined {
  try {
    const value = parsed.dataSet.string(parserKey(tag));
    const cleaned = value?.replace(/\0/g, '').trim();
    return cleaned ? cleaned : undefined;
  } catch {
    return undefined;
  }
}

function integer(parsed: HeaderElements, tag: string): number | undefined {
  const value = text(parsed, tag);
  if (value === undefined) return undefined;
  const number = Number.parseInt(value.split('\\')[0] ?? '', 10);
  return Number.isFinite(number) ? number : undefined;
}

function decimal(parsed: HeaderElements, tag: string): number | undefined {
  const value = text(parsed, tag);
  if (value === undefined) return undefined;
  const number = Number.parseFloat(value.split('\\')[0] ?? '');
  return Number.isFinite(number) ? number : undefined;
}

/**
 * A stand-in UID for a file that lacks its series or study UID (docs/domain.md#metadata-read-from-files). Derived from what the file does
 * carry, so files of one series without a UID still land in one group, and the same upload gets the same UID again.
 */
function generatedUid(...parts: (string | number | undefined)[]): string {
  return uidFromDigest(sha256(utf8(`iws-generated|${parts.map((part) => String(part ?? '')).join('|')}`)));
}

/** Reads the upload wizard's per-file metadata with the defaults above. */
export function readSeriesFileMetadata(parsed: HeaderElements, fileName: string, fileSize: number): SeriesFileMetadata {
  const patientID = text(parsed, TAG.PatientID) ?? '';
  const studyDate = text(parsed, TAG.StudyDate) ?? '';
  const seriesNumber = integer(parsed, TAG.SeriesNumber) ?? METADATA_DEFAULTS.seriesNumber;
  const seriesDescription = text(parsed, TAG.SeriesDescription) ?? METADATA_DEFAULTS.seriesDescription;
  const modality = text(parsed, TAG.Modality) ?? METADATA_DEFAULTS.modality;
  const studyInstanceUID = text(parsed, TAG.StudyInstanceUID) ?? generatedUid('study', patientID, studyDate);
  const seriesInstanceUID =
    text(parsed, TAG.SeriesInstanceUID) ??
    generatedUid('series', studyInstanceUID, seriesNumber, seriesDescription, modality);
  const instanceNumber = integer(parsed, TAG.InstanceNumber) ?? METADATA_DEFAULTS.instanceNumber;
  const sliceLocation = decimal(parsed, TAG.SliceLocation);
  const metadata: SeriesFileMetadata = {
    seriesInstanceUID,
    studyInstanceUID,
    modality,
    seriesNumber,
    seriesDescription,
    imageType: (text(parsed, TAG.ImageType) ?? '')
      .split('\\')
      .map((part) => part.trim())
      .filter(Boolean),
    patientID,
    studyDate,
    instanceNumber,
    patientName: text(parsed, TAG.PatientName) ?? METADATA_DEFAULTS.patientName,
    studyDescription: text(parsed, TAG.StudyDescription) ?? METADATA_DEFAULTS.studyDescription,
    sopInstanceUID:
      text(parsed, TAG.SOPInstanceUID) ??
      generatedUid('instance', seriesInstanceUID, instanceNumber, fileName, fileSize),
    fileSize,
    fileName,
  };
  if (sliceLocation !== undefined) metadata.sliceLocation = sliceLocation;
  return metadata;
}
