/**
 * The BIDS suffixes a labelled sidecar's file name may carry, mapped onto the suffix vocabulary the classifier speaks
 * (BIDS 1.10 raw suffixes for anat, func, dwi, fmap and perf, plus the derived diffusion maps and the susceptibility
 * images of the SWI extension). Labels outside it (masks, segmentations, vendor noise maps, and names a dataset made
 * up, such as GRE, T1ce, apt or TDP, which no header can predict) are not scored for suffix; their class label still
 * counts.
 */
const ALIASES: Record<string, string> = {
  T2w_TSE: 'T2w',
  T1wRMS: 'T1w',
  PD: 'PDw',
  T2star: 'T2starw',
  UNIT1_denoised: 'UNIT1',
  MP2RAGE_UNI: 'UNIT1',
  MP2RAGE_T1: 'T1map',
  MP2RAGE_INV1: 'MP2RAGE',
  MP2RAGE_INV2: 'MP2RAGE',
  MP2RAGE_INV1_PHS: 'MP2RAGE',
  MP2RAGE_INV2_PHS: 'MP2RAGE',
  mp2rage: 'MP2RAGE',
  ToF: 'angio',
  rsfMRI: 'bold',
  rsfMRI_DiCo: 'bold',
  minIP: 'minIP',
  swi: 'swi',
};

/** Every suffix the classifier may answer, by BIDS datatype. */
export const BIDS_SUFFIXES = {
  anat: [
    'T1w',
    'T2w',
    'FLAIR',
    'PDw',
    'T2starw',
    'T2starmap',
    'PDT2',
    'inplaneT1',
    'inplaneT2',
    'angio',
    'UNIT1',
    'MP2RAGE',
    'T1map',
    'T2map',
    'R1map',
    'R2starmap',
    'MTS',
    'MTR',
    'MTsat',
    'MEGRE',
    'MESE',
    'MPM',
    'VFA',
    'IRT1',
    'swi',
    'minIP',
  ],
  func: ['bold', 'sbref', 'cbv', 'phase', 'noRF'],
  dwi: ['dwi', 'sbref', 'ADC', 'FA', 'trace', 'colFA', 'expADC', 'S0map'],
  fmap: [
    'epi',
    'phasediff',
    'phase1',
    'phase2',
    'magnitude1',
    'magnitude2',
    'magnitude',
    'fieldmap',
    'TB1map',
    'TB1DAM',
    'TB1EPI',
    'TB1AFI',
    'TB1TFL',
    'TB1RFM',
    'TB1SRGE',
    'TB1DREAM',
    'RB1COR',
    'm0scan',
  ],
  perf: ['asl', 'm0scan'],
} as const;

const VOCABULARY = new Set<string>(Object.values(BIDS_SUFFIXES).flat());

/** The label's suffix in the classifier's vocabulary, or undefined when the label is outside it. */
export function canonicalSuffix(suffix: string): string | undefined {
  const mapped = ALIASES[suffix] ?? suffix;
  return VOCABULARY.has(mapped) ? mapped : undefined;
}

/**
 * Suffixes that differ only by what a single sidecar cannot show: the echo of a two-echo field map's magnitude or
 * phase image (EchoNumber is not among the sidecar fields) counts as the same answer.
 */
export function sameSuffix(predicted: string, label: string): boolean {
  const family = (suffix: string) => suffix.replace(/^(magnitude|phase)[12]?$/, '$1');
  return predicted === label || family(predicted) === family(label);
}
