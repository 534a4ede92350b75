import type { BidsSuggestion, ClassifiedType, SeriesAcquisition } from '#shared/dicom/classify/types.ts';

/**
 * A plain keyword classifier, the yardstick the physics-first classifier must beat: the first keyword found in the
 * series description or protocol name decides, with the diffusion direction count splitting DTI from DWI. It reads
 * no acquisition physics, so without descriptions it answers OTHER.
 */
const KEYWORDS: { pattern: RegExp; type: ClassifiedType; bids: BidsSuggestion }[] = [
  { pattern: /sbref/, type: 'OTHER', bids: { datatype: 'func', suffix: 'sbref' } },
  { pattern: /asl|perfusion/, type: 'OTHER', bids: { datatype: 'perf', suffix: 'asl' } },
  { pattern: /field ?map|fmap|b0map|topup/, type: 'OTHER', bids: { datatype: 'fmap', suffix: 'epi' } },
  { pattern: /bold|fmri|rest|task|func/, type: 'OTHER', bids: { datatype: 'func', suffix: 'bold' } },
  { pattern: /dti|dwi|diff/, type: 'DTI', bids: { datatype: 'dwi', suffix: 'dwi' } },
  { pattern: /flair/, type: 'FLAIR', bids: { datatype: 'anat', suffix: 'FLAIR' } },
  { pattern: /swi|t2\*|t2star|gre/, type: 'SWI', bids: { datatype: 'anat', suffix: 'T2starw' } },
  { pattern: /tof|angio/, type: 'OTHER', bids: { datatype: 'anat', suffix: 'angio' } },
  { pattern: /mp2rage/, type: 'OTHER', bids: { datatype: 'anat', suffix: 'MP2RAGE' } },
  { pattern: /t1|mprage|spgr|bravo/, type: 'T1', bids: { datatype: 'anat', suffix: 'T1w' } },
  { pattern: /t2/, type: 'T2', bids: { datatype: 'anat', suffix: 'T2w' } },
  { pattern: /pd/, type: 'OTHER', bids: { datatype: 'anat', suffix: 'PDw' } },
];

export function classifyByKeywords(
  acq: SeriesAcquisition,
  options: { ignoreDescriptions?: boolean } = {},
): { classifiedType: ClassifiedType; bids: BidsSuggestion } {
  const text = options.ignoreDescriptions ? '' : [acq.seriesDescription, acq.protocolName].join(' ').toLowerCase();
  const hit = KEYWORDS.find((keyword) => keyword.pattern.test(text));
  if (!hit) return { classifiedType: 'OTHER', bids: { datatype: 'misc', suffix: 'unknown' } };
  if (hit.type === 'DTI' && (acq.diffusionDirections ?? 6) < 6) return { classifiedType: 'DWI', bids: hit.bids };
  if (hit.type === 'T1' && /post|gad|contrast|\+c/.test(text)) return { classifiedType: 'T1_CONTRAST', bids: hit.bids };
  return { classifiedType: hit.type, bids: { ...hit.bids } };
}
