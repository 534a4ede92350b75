/**
 * Retain Safe Private option (PS3.15 E.3.10): the vendor private attributes that diffusion and geometry processing
 * need, and nothing else. Creators compare upper-case; `element` is the low byte within the private block.
 * Source of each entry: dcm2niix console/nii_dicom.cpp (rordenlab/dcm2niix @ a36d2d07), which reads these tags to
 * build bval/bvec, mosaics and slice geometry; Philips scale slope/intercept per PixelMed
 * ClinicalTrialsAttributes.isSafePrivateAttribute. Collected in ../shared/data/standard/annex-e-table-e1-1.json
 * (`safe_private`), repeated here as code so a change is a reviewed change.
 */
export type SafePrivateAttribute = { creator: string; group: number; element: number; meaning: string; source: string };

const DCM2NIIX = 'dcm2niix nii_dicom.cpp';
const PIXELMED = 'PixelMed ClinicalTrialsAttributes.isSafePrivateAttribute';

export const SAFE_PRIVATE_ATTRIBUTES: readonly SafePrivateAttribute[] = [
  { creator: 'SIEMENS MR HEADER', group: 0x0019, element: 0x0a, meaning: 'NumberOfImagesInMosaic', source: DCM2NIIX },
  { creator: 'SIEMENS MR HEADER', group: 0x0019, element: 0x0c, meaning: 'B_value', source: DCM2NIIX },
  { creator: 'SIEMENS MR HEADER', group: 0x0019, element: 0x0d, meaning: 'DiffusionDirectionality', source: DCM2NIIX },
  {
    creator: 'SIEMENS MR HEADER',
    group: 0x0019,
    element: 0x0e,
    meaning: 'DiffusionGradientDirection',
    source: DCM2NIIX,
  },
  { creator: 'SIEMENS MR HEADER', group: 0x0019, element: 0x27, meaning: 'B_matrix', source: DCM2NIIX },
  {
    creator: 'SIEMENS MR HEADER',
    group: 0x0019,
    element: 0x28,
    meaning: 'BandwidthPerPixelPhaseEncode',
    source: DCM2NIIX,
  },
  { creator: 'SIEMENS CSA HEADER', group: 0x0029, element: 0x08, meaning: 'CSAImageHeaderType', source: DCM2NIIX },
  {
    creator: 'SIEMENS CSA HEADER',
    group: 0x0029,
    element: 0x10,
    meaning: 'CSAImageHeaderInfo (slice normal, mosaic, phase-encoding polarity)',
    source: DCM2NIIX,
  },
  {
    creator: 'GEMS_ACQU_01',
    group: 0x0019,
    element: 0xbb,
    meaning: 'UserData20 (diffusion direction x)',
    source: DCM2NIIX,
  },
  {
    creator: 'GEMS_ACQU_01',
    group: 0x0019,
    element: 0xbc,
    meaning: 'UserData21 (diffusion direction y)',
    source: DCM2NIIX,
  },
  {
    creator: 'GEMS_ACQU_01',
    group: 0x0019,
    element: 0xbd,
    meaning: 'UserData22 (diffusion direction z)',
    source: DCM2NIIX,
  },
  { creator: 'GEMS_PARM_01', group: 0x0043, element: 0x39, meaning: 'SlopInt6-9 (b-value)', source: DCM2NIIX },
  { creator: 'GEMS_RELA_01', group: 0x0021, element: 0x4f, meaning: 'LocationsInAcquisition', source: DCM2NIIX },
  { creator: 'PHILIPS IMAGING DD 001', group: 0x2001, element: 0x03, meaning: 'DiffusionBFactor', source: DCM2NIIX },
  { creator: 'PHILIPS IMAGING DD 001', group: 0x2001, element: 0x04, meaning: 'DiffusionDirection', source: DCM2NIIX },
  { creator: 'PHILIPS IMAGING DD 001', group: 0x2001, element: 0x0b, meaning: 'SliceOrientation', source: DCM2NIIX },
  { creator: 'PHILIPS IMAGING DD 001', group: 0x2001, element: 0x18, meaning: 'NumberOfSlicesMR', source: DCM2NIIX },
  { creator: 'PHILIPS MR IMAGING DD 001', group: 0x2005, element: 0x0d, meaning: 'ScaleIntercept', source: PIXELMED },
  { creator: 'PHILIPS MR IMAGING DD 001', group: 0x2005, element: 0x0e, meaning: 'ScaleSlope', source: PIXELMED },
  {
    creator: 'PHILIPS MR IMAGING DD 001',
    group: 0x2005,
    element: 0x71,
    meaning: 'StackAngulationAP',
    source: DCM2NIIX,
  },
  {
    creator: 'PHILIPS MR IMAGING DD 001',
    group: 0x2005,
    element: 0x72,
    meaning: 'StackAngulationFH',
    source: DCM2NIIX,
  },
  {
    creator: 'PHILIPS MR IMAGING DD 001',
    group: 0x2005,
    element: 0x73,
    meaning: 'StackAngulationRL',
    source: DCM2NIIX,
  },
  { creator: 'PHILIPS MR IMAGING DD 001', group: 0x2005, element: 0x78, meaning: 'StackOffcentreAP', source: DCM2NIIX },
  { creator: 'PHILIPS MR IMAGING DD 001', group: 0x2005, element: 0x79, meaning: 'StackOffcentreFH', source: DCM2NIIX },
  { creator: 'PHILIPS MR IMAGING DD 001', group: 0x2005, element: 0x7a, meaning: 'StackOffcentreRL', source: DCM2NIIX },
  {
    creator: 'PHILIPS MR IMAGING DD 001',
    group: 0x2005,
    element: 0xb0,
    meaning: 'DiffusionDirectionRL',
    source: DCM2NIIX,
  },
  {
    creator: 'PHILIPS MR IMAGING DD 001',
    group: 0x2005,
    element: 0xb1,
    meaning: 'DiffusionDirectionAP',
    source: DCM2NIIX,
  },
  {
    creator: 'PHILIPS MR IMAGING DD 001',
    group: 0x2005,
    element: 0xb2,
    meaning: 'DiffusionDirectionFH',
    source: DCM2NIIX,
  },
];

const SAFE_KEYS = new Set(SAFE_PRIVATE_ATTRIBUTES.map((entry) => `${entry.creator}|${entry.group}|${entry.element}`));

export function isSafePrivate(creator: string, group: number, elementLowByte: number): boolean {
  return SAFE_KEYS.has(`${creator.trim().toUpperCase()}|${group}|${elementLowByte}`);
}
