import { looksLikeText } from './text.ts';

/**
 * Retain Safe Private option (PS3.15 E.3.10): the vendor private attributes that diffusion and geometry processing
 * need, and nothing else. Creators compare upper-case; `element` is the low byte within the private block.
 * Source of each entry: dcm2niix console/nii_dicom.cpp (rordenlab/dcm2niix @ a36d2d07), which reads these tags to
 * build bval/bvec, mosaics and slice geometry; Philips scale slope/intercept per PixelMed
 * ClinicalTrialsAttributes.isSafePrivateAttribute. Collected in ../shared/data/standard/annex-e-table-e1-1.json
 * (`safe_private`), repeated here as code so a change is a reviewed change.
 * `vr` is the vendor's VR (implicit VR files say UN): a value is kept only when it has that shape, so free text put in
 * a safe slot does not ride along; a CS value must be one of `values`.
 */
export type SafePrivateAttribute = {
  creator: string;
  group: number;
  element: number;
  vr: 'IS' | 'DS' | 'CS' | 'US' | 'SS' | 'SL' | 'FL' | 'FD' | 'OB';
  values?: readonly string[];
  meaning: string;
  source: string;
};

const DCM2NIIX = 'dcm2niix nii_dicom.cpp';
const PIXELMED = 'PixelMed ClinicalTrialsAttributes.isSafePrivateAttribute';
const SIEMENS = 'SIEMENS MR HEADER';
const CSA = 'SIEMENS CSA HEADER';
const PHILIPS = 'PHILIPS IMAGING DD 001';
const PHILIPS_MR = 'PHILIPS MR IMAGING DD 001';

type Row = [creator: string, group: number, element: number, vr: SafePrivateAttribute['vr'], meaning: string];

const ROWS: Row[] = [
  [SIEMENS, 0x0019, 0x0a, 'US', 'NumberOfImagesInMosaic'],
  [SIEMENS, 0x0019, 0x0c, 'IS', 'B_value'],
  [SIEMENS, 0x0019, 0x0d, 'CS', 'DiffusionDirectionality'],
  [SIEMENS, 0x0019, 0x0e, 'FD', 'DiffusionGradientDirection'],
  [SIEMENS, 0x0019, 0x27, 'FD', 'B_matrix'],
  [SIEMENS, 0x0019, 0x28, 'FD', 'BandwidthPerPixelPhaseEncode'],
  [CSA, 0x0029, 0x08, 'CS', 'CSAImageHeaderType'],
  [CSA, 0x0029, 0x10, 'OB', 'CSAImageHeaderInfo (slice normal, mosaic, phase-encoding polarity)'],
  ['GEMS_ACQU_01', 0x0019, 0xbb, 'DS', 'UserData20 (diffusion direction x)'],
  ['GEMS_ACQU_01', 0x0019, 0xbc, 'DS', 'UserData21 (diffusion direction y)'],
  ['GEMS_ACQU_01', 0x0019, 0xbd, 'DS', 'UserData22 (diffusion direction z)'],
  ['GEMS_PARM_01', 0x0043, 0x39, 'IS', 'SlopInt6-9 (b-value)'],
  ['GEMS_RELA_01', 0x0021, 0x4f, 'SS', 'LocationsInAcquisition'],
  [PHILIPS, 0x2001, 0x03, 'FL', 'DiffusionBFactor'],
  [PHILIPS, 0x2001, 0x04, 'CS', 'DiffusionDirection'],
  [PHILIPS, 0x2001, 0x0b, 'CS', 'SliceOrientation'],
  [PHILIPS, 0x2001, 0x18, 'SL', 'NumberOfSlicesMR'],
  [PHILIPS_MR, 0x2005, 0x0d, 'FL', 'ScaleIntercept'],
  [PHILIPS_MR, 0x2005, 0x0e, 'FL', 'ScaleSlope'],
  [PHILIPS_MR, 0x2005, 0x71, 'FL', 'StackAngulationAP'],
  [PHILIPS_MR, 0x2005, 0x72, 'FL', 'StackAngulationFH'],
  [PHILIPS_MR, 0x2005, 0x73, 'FL', 'StackAngulationRL'],
  [PHILIPS_MR, 0x2005, 0x78, 'FL', 'StackOffcentreAP'],
  [PHILIPS_MR, 0x2005, 0x79, 'FL', 'StackOffcentreFH'],
  [PHILIPS_MR, 0x2005, 0x7a, 'FL', 'StackOffcentreRL'],
  [PHILIPS_MR, 0x2005, 0xb0, 'FL', 'DiffusionDirectionRL'],
  [PHILIPS_MR, 0x2005, 0xb1, 'FL', 'DiffusionDirectionAP'],
  [PHILIPS_MR, 0x2005, 0xb2, 'FL', 'DiffusionDirectionFH'],
];

/** The coded values of the CS entries, as the vendors write them (dcm2niix reads these). */
const CODED_VALUES: Record<string, readonly string[]> = {
  DiffusionDirectionality: ['DIRECTIONAL', 'NONE', 'ISOTROPIC', 'BMATRIX'],
  CSAImageHeaderType: ['IMAGE NUM 4', 'MR', 'SPEC NUM 4'],
  DiffusionDirection: ['I', 'O', 'P', 'R', 'A', 'S', 'L', 'H', 'F', 'E'],
  SliceOrientation: ['TRANSVERSAL', 'SAGITTAL', 'CORONAL'],
};

export const SAFE_PRIVATE_ATTRIBUTES: readonly SafePrivateAttribute[] = ROWS.map(
  ([creator, group, element, vr, meaning]) => ({
    creator,
    group,
    element,
    vr,
    meaning,
    source: meaning.startsWith('Scale') ? PIXELMED : DCM2NIIX,
    ...(CODED_VALUES[meaning] ? { values: CODED_VALUES[meaning] } : {}),
  }),
);

const BY_KEY = new Map(
  SAFE_PRIVATE_ATTRIBUTES.map((entry) => [`${entry.creator}|${entry.group}|${entry.element}`, entry]),
);

/** The safe-list entry of a private element (by its block's creator), if any. */
export function safePrivateEntry(
  creator: string,
  group: number,
  elementLowByte: number,
): SafePrivateAttribute | undefined {
  return BY_KEY.get(`${creator.trim().toUpperCase()}|${group}|${elementLowByte}`);
}

export function isSafePrivate(creator: string, group: number, elementLowByte: number): boolean {
  return safePrivateEntry(creator, group, elementLowByte) !== undefined;
}

const BINARY_SIZE: Partial<Record<SafePrivateAttribute['vr'], number>> = { US: 2, SS: 2, SL: 4, FL: 4, FD: 8 };
const TEXT_VRS = new Set([
  'AE',
  'AS',
  'CS',
  'DA',
  'DS',
  'DT',
  'IS',
  'LO',
  'LT',
  'PN',
  'SH',
  'ST',
  'TM',
  'UC',
  'UR',
  'UT',
]);

function binaryString(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return text;
}

/**
 * True when a safe private value has the shape its entry promises: numbers for IS/DS, one of the coded values for
 * CS, binary numbers of the right size for US/SS/SL/FL/FD (never readable words), the CSA header's binary form.
 * `vr` is the element's VR in the file (UN in implicit VR files).
 */
export function isSafePrivateValue(entry: SafePrivateAttribute, vr: string, value: Uint8Array): boolean {
  if (entry.vr === 'IS' || entry.vr === 'DS')
    return value.length <= 1024 && /^[\d\s.+\-eE\\\0]*$/.test(binaryString(value));
  if (entry.vr === 'CS') {
    if (value.length > 64) return false;
    const parts = binaryString(value)
      .replace(/[\0 ]+$/, '')
      .split('\\');
    return parts.every((part) => entry.values?.includes(part.trim()) ?? false);
  }
  // A binary entry written with a text VR, or readable words where numbers belong, is not what the list promises.
  if (TEXT_VRS.has(vr)) return false;
  const size = BINARY_SIZE[entry.vr];
  if (size !== undefined && (value.length % size !== 0 || value.length > 64 * size)) return false;
  if (entry.vr === 'OB') return !looksLikeText(value);
  return !(looksLikeText(value) && /[A-Za-z]{4}/.test(binaryString(value)));
}
