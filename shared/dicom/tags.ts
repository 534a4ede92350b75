/**
 * The DICOM attributes the engine names, keyed by their PS3.6 keyword, as GGGGEEEE (upper-case hex). One table, so a
 * tag is spelled once; tests/unit/dicom/tags.test.ts checks every entry against the data dictionary.
 */
export const TAG = {
  FileMetaInformationGroupLength: '00020000',
  FileMetaInformationVersion: '00020001',
  MediaStorageSOPClassUID: '00020002',
  MediaStorageSOPInstanceUID: '00020003',
  TransferSyntaxUID: '00020010',
  ImplementationClassUID: '00020012',
  ImplementationVersionName: '00020013',
  ImageType: '00080008',
  SOPClassUID: '00080016',
  SOPInstanceUID: '00080018',
  StudyDate: '00080020',
  Modality: '00080060',
  CodeValue: '00080100',
  CodingSchemeDesignator: '00080102',
  CodeMeaning: '00080104',
  StudyDescription: '00081030',
  SeriesDescription: '0008103E',
  PatientName: '00100010',
  PatientID: '00100020',
  PatientIdentityRemoved: '00120062',
  DeidentificationMethod: '00120063',
  DeidentificationMethodCodeSequence: '00120064',
  ProtocolName: '00181030',
  StudyInstanceUID: '0020000D',
  SeriesInstanceUID: '0020000E',
  SeriesNumber: '00200011',
  InstanceNumber: '00200013',
  SliceLocation: '00201041',
  SamplesPerPixel: '00280002',
  PhotometricInterpretation: '00280004',
  PlanarConfiguration: '00280006',
  NumberOfFrames: '00280008',
  Rows: '00280010',
  Columns: '00280011',
  BitsAllocated: '00280100',
  BitsStored: '00280101',
  PixelRepresentation: '00280103',
  BurnedInAnnotation: '00280301',
  WindowCenter: '00281050',
  WindowWidth: '00281051',
  RescaleIntercept: '00281052',
  RescaleSlope: '00281053',
  LongitudinalTemporalInformationModified: '00280303',
  PixelData: '7FE00010',
} as const;

export type TagKeyword = keyof typeof TAG;
export type Tag = (typeof TAG)[TagKeyword];

export const tagGroup = (tag: string): number => Number.parseInt(tag.slice(0, 4), 16);
export const tagElement = (tag: string): number => Number.parseInt(tag.slice(4, 8), 16);

/** The key dicom-parser gives an element: "x" and the tag in lower case. */
export const parserKey = (tag: string): string => `x${tag.toLowerCase()}`;
