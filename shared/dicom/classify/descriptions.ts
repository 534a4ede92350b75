import { BIDS, type Evidence } from './physics.ts';
import type { SeriesAcquisition } from './types.ts';

/**
 * Evidence from the human-written names (SeriesDescription, ProtocolName). They add to the physics, never replace it:
 * one keyword weighs less than one decisive physics rule, so a wrong or stale description cannot flip a clear acquisition.
 * The record's section 9 description rules (T1 / T2 / FLAIR / dwi / diffusion / bold / func / asl / perfusion /
 * fieldmap / fmap / PET) are among the keywords.
 */
export const DESCRIPTION_WEIGHT = 2.5;

/** Lower-case words: separators such as "_", "-", "." become spaces so "t1_mpr_sag" reads "t1 mpr sag". */
export function normaliseDescription(acq: SeriesAcquisition): string {
  const text = [acq.seriesDescription, acq.protocolName].filter(Boolean).join(' | ');
  return text
    .toLowerCase()
    .replace(/[_\-.:;,()[\]{}]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const RULES: { pattern: RegExp; evidence: Omit<Evidence, 'weight' | 'reason'>; label: string }[] = [
  {
    pattern: /\b(adc|e?adc|fa|colfa|col fa|trace ?w?|tracew|exp|expadc|tensor b0|isotropic)\b/,
    evidence: { type: 'OTHER', bids: BIDS.dwi },
    label: 'derived diffusion map',
  },
  {
    pattern: /\b(sbref|single ?band ?ref)\b/,
    evidence: { type: 'OTHER', bids: BIDS.sbref },
    label: 'single-band reference',
  },
  {
    pattern: /\b(bold|fmri|func|rest(ing)?|task)\b|\btask /,
    evidence: { type: 'OTHER', bids: BIDS.bold },
    label: 'functional (BOLD)',
  },
  {
    pattern: /pcasl|\b(asl|pasl|casl|perfusion|m0 ?scan|m0)\b/,
    evidence: { type: 'OTHER', bids: BIDS.asl },
    label: 'perfusion (ASL)',
  },
  {
    pattern: /field ?map|fmap|topup|phasediff|\b(distort(ion)?|b0 ?map|b1 ?map)\b/,
    evidence: { type: 'OTHER', bids: { datatype: 'fmap', suffix: 'fieldmap' } },
    label: 'field map',
  },
  {
    pattern:
      /\b(localizer|localiser|scout|survey|aahead|aascout|3 ?plane|tri ?pilot|cal(ibration)?|asset ?cal|refscan)\b/,
    evidence: { type: 'OTHER' },
    label: 'localizer or calibration',
  },
  {
    pattern: /\b(mp2rage|inv1|inv2|uni|t1 ?map|t2 ?map|mese|megre|mpm|vfa|mtsat?|qsm)\b/,
    evidence: { type: 'OTHER', bids: BIDS.MP2RAGE },
    label: 'quantitative mapping',
  },
  {
    pattern: /\b(tof|angio|mra|mra ?tof|time of flight|cow|circle of willis)\b/,
    evidence: { type: 'OTHER', bids: BIDS.angio },
    label: 'angiography',
  },
  { pattern: /\b(pet|pt)\b/, evidence: { type: 'OTHER', bids: BIDS.pet }, label: 'PET' },
  {
    pattern: /\b(swi|swan|t2 ?star|t2\*|susceptib\w*|venobold|hemo|gre t2|minip|mnip)\b/,
    evidence: { type: 'SWI', bids: BIDS.T2starw },
    label: 'susceptibility / T2*',
  },
  {
    pattern: /\b(dti|tensor|hardi|([6-9]|[1-9]\d{1,2}) ?(d|dirs?|directions))\b/,
    evidence: { type: 'DTI', bids: BIDS.dwi },
    label: 'DTI',
  },
  {
    pattern: /\b(dwi|diffusion|diff|ep2d diff|b1000|resolve)\b/,
    evidence: { type: 'DWI', bids: BIDS.dwi },
    label: 'diffusion',
  },
];

const T1 =
  /\b(t1w?|t1 ?weighted|mprage|mp rage|mpr|spgr|fspgr|bravo|tfl|tfe|ir ?spgr|t1 ?ffe|t1 ?tse|t1 ?se|vibe|star ?vibe)\b|\bt1/;
const T2 = /\b(t2w?|t2 ?weighted|t2 ?tse|t2 ?fse|t2 ?space|t2 ?spc|t2 ?cube)\b|\bt2(?! ?star|\*)/;
const FLAIR = /\b(flair|dark ?fluid|tirm|fluid ?att\w*)\b|flair/;
const CONTRAST =
  /\b(post|post ?contrast|post ?gad|postgad|post ?gd|gad(o|olinium)?|gd|contrast|c\+|ce|t1c|t1 ?\+ ?c)\b|\+ ?c\b|\+ ?gd\b/;
const NOT_CONTRAST = /\b(pre|pre ?contrast|precontrast|non ?contrast|without contrast|no contrast|native)\b/;

/** Description evidence for one series (empty when there is no description). */
export function descriptionEvidence(acq: SeriesAcquisition): Evidence[] {
  const text = normaliseDescription(acq);
  if (!text) return [];
  const quoted = `"${[acq.seriesDescription, acq.protocolName].filter(Boolean).join('" / "')}"`;
  for (const rule of RULES) {
    if (rule.pattern.test(text)) {
      return [
        { ...rule.evidence, weight: DESCRIPTION_WEIGHT, reason: `description ${quoted} names a ${rule.label} series` },
      ];
    }
  }
  const hasT1 = T1.test(text);
  const hasT2 = T2.test(text);
  const hasFlair = FLAIR.test(text);
  if (hasFlair && hasT1 && !hasT2) {
    return [
      {
        type: 'T1',
        weight: DESCRIPTION_WEIGHT,
        reason: `description ${quoted} names a T1-weighted FLAIR (dark-fluid T1)`,
        bids: BIDS.T1w,
      },
    ];
  }
  if (hasFlair)
    return [
      { type: 'FLAIR', weight: DESCRIPTION_WEIGHT, reason: `description ${quoted} names FLAIR`, bids: BIDS.FLAIR },
    ];
  // Record section 9: "T1 without T2 gives anat/T1w; T2 without T1 gives anat/T2w".
  if (hasT1 && !hasT2)
    return [
      {
        type: 'T1',
        weight: DESCRIPTION_WEIGHT,
        reason: `description ${quoted} names a T1-weighted series`,
        bids: BIDS.T1w,
      },
    ];
  if (hasT2 && !hasT1)
    return [
      {
        type: 'T2',
        weight: DESCRIPTION_WEIGHT,
        reason: `description ${quoted} names a T2-weighted series`,
        bids: BIDS.T2w,
      },
    ];
  return [];
}

/** True when the description says the series was acquired after contrast (and does not say "pre"/"non-contrast"). */
export function descriptionSaysPostContrast(acq: SeriesAcquisition): boolean {
  const text = normaliseDescription(acq);
  return CONTRAST.test(text) && !NOT_CONTRAST.test(text);
}
