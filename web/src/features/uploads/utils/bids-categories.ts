/** BIDS data types and the suffixes offered for each (docs/domain.md#bids-suggestions). */
export const BIDS_CATEGORIES: Record<string, readonly string[]> = {
  anat: ['T1w', 'T2w', 'FLAIR', 'T1map', 'T2map', 'PD', 'PDw', 'inplaneT1', 'inplaneT2', 'angio'],
  func: ['bold', 'cbv', 'phase', 'events', 'physio', 'stim'],
  dwi: ['dwi', 'sbref'],
  fmap: ['phasediff', 'phase1', 'phase2', 'magnitude1', 'magnitude2', 'fieldmap', 'epi'],
  perf: ['asl', 'cbf', 'att'],
  pet: ['pet'],
  meg: ['markers', 'meg'],
  eeg: ['eeg', 'ieeg'],
  beh: ['beh'],
  mrs: ['mrs'],
  ieeg: ['ieeg'],
};

export type BidsChoice = { category: string; subcategory: string };

/** A choice that exists in the list: the suggestion when valid, else the category's first suffix, else anat/T1w. */
export function normaliseBidsChoice(datatype: string, suffix: string): BidsChoice {
  const subs = BIDS_CATEGORIES[datatype];
  if (!subs) return { category: 'anat', subcategory: 'T1w' };
  return { category: datatype, subcategory: subs.includes(suffix) ? suffix : subs[0]! };
}
