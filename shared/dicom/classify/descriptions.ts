import { BIDS, readFeatures, type Evidence, type Features } from './physics.ts';
import type { BidsSuggestion, SeriesAcquisition } from './types.ts';

/**
 * Evidence from the human-written names (SeriesDescription, ProtocolName). They add to the physics, never replace a
 * decisive acquisition: a contrast keyword weighs less than one decisive physics rule, so a wrong or stale description
 * cannot flip a clear acquisition. Names of series families that physics cannot tell apart (a single-band reference
 * from its BOLD run, a reversed-phase field map from a BOLD volume, time-of-flight from a spoiled T1 gradient echo)
 * weigh more: there the name is the only witness.
 */
export const DESCRIPTION_WEIGHT = 2.5;
const FAMILY_WEIGHT = 4;
/**
 * A gradient echo named SWI (inversion- and magnetization-prepared ones excluded): well above a multi-echo mapping or
 * field-map reading of the physics (strong, 3) with the OTHER prior (1.5), as the name is the only witness there.
 */
const SWI_NAME_WEIGHT = 7;

/**
 * Lower-case words: separators such as "_", "-", "." become spaces so "t1_mpr_sag" reads "t1 mpr sag"; Philips
 * "WIP…SENSE" wrappers are unwrapped ("WIPT1wSENSE" reads "t1w sense").
 */
export function normaliseText(text: string): string {
  return text
    .replace(/\bWIP\s*/g, ' ')
    .replace(/([a-z0-9])(SENSE|CLEAR)\b/g, '$1 $2')
    .toLowerCase()
    .replace(/[_\-.:;,()[\]{}]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function normaliseDescription(acq: SeriesAcquisition): string {
  return normaliseText([acq.seriesDescription, acq.protocolName].filter(Boolean).join(' | '));
}

type Rule = {
  pattern: RegExp;
  /** The physics or the rest of the text that takes the name out of this rule. */
  unless?: (f: Features, text: string) => boolean;
  label: string;
  weight: number;
  /** The class and BIDS answer, which may depend on what the physics shows (EPI or not, phase or magnitude). */
  answer: (f: Features, text: string) => Pick<Evidence, 'type' | 'bids'>;
};

const other = (bids?: BidsSuggestion) => () => ({ type: 'OTHER' as const, bids });

const DERIVED_DWI: [RegExp, string][] = [
  [/\bcol ?fa\b/, 'colFA'],
  [/\bfa\b/, 'FA'],
  [/\bexp ?adc\b|\beadc\b/, 'expADC'],
  [/\badc\b/, 'ADC'],
  [/\btrace ?w?\b|\btracew\b|\bisotropic\b/, 'trace'],
];

/** Which B1 (transmit field) method a map names, else the generic TB1map. */
function transmitSuffix(f: Features, text: string): string {
  const all = `${text} ${f.seqText}`;
  if (/dream/.test(all)) return 'TB1DREAM';
  if (/sa2rage|srge/.test(all)) return 'TB1SRGE';
  if (/\bafi\b/.test(all)) return 'TB1AFI';
  if (/seste|\bepi\b/.test(all)) return 'TB1EPI';
  if (/tfl/.test(all)) return 'TB1TFL';
  // A Siemens B1 map that names no method: the flip-angle or reference-voltage map of a DREAM acquisition (as the
  // physics reads it, physics.ts transmitFieldEvidence).
  if (!f.isEpi && (f.image.has('B1MAP') || f.image.has('REFVOLTMAP'))) return 'TB1DREAM';
  return 'TB1map';
}

/**
 * A B0 field map's image: a phase (difference) image, a magnitude image, or a reversed-phase EPI. A name that says EPI,
 * spin echo or diffusion ("FM_SE_EPI_PA", "FM_DTI_PA": Philips records no EPI read-out in ScanningSequence) is the
 * reversed-phase EPI of a distortion correction.
 */
function fieldMapSuffix(f: Features, text = ''): BidsSuggestion {
  if (f.isEpi || /\b(epi|se|dti|dwi|diff\w*|blip\w*|topup|pepolar)\b/.test(text)) return BIDS.fmapEpi;
  if (f.image.has('P') || f.image.has('PHASE')) return BIDS.phasediff;
  if (f.image.has('M') || f.image.has('MAGNITUDE')) return BIDS.magnitude;
  if (f.isSe) return BIDS.fmapEpi;
  return BIDS.phasediff;
}

const RULES: Rule[] = [
  {
    pattern: /\b(adc|e?adc|fa|colfa|col fa|trace ?w?|tracew|exp|expadc|isotropic)\b/,
    label: 'derived diffusion map',
    weight: DESCRIPTION_WEIGHT,
    answer: (_f, text) => ({
      type: 'OTHER',
      bids: { datatype: 'dwi', suffix: DERIVED_DWI.find(([pattern]) => pattern.test(text))?.[1] ?? 'dwi' },
    }),
  },
  {
    pattern: /sbref|\bsingle ?band ?ref/,
    label: 'single-band reference',
    weight: FAMILY_WEIGHT,
    answer: (f) => ({
      type: 'OTHER',
      bids: f.image.has('DIFFUSION') || /ep_b|diff/.test(f.seqText) ? { datatype: 'dwi', suffix: 'sbref' } : BIDS.sbref,
    }),
  },
  {
    pattern:
      /topup|pepolar|\b(rpe|blip ?(up|down)?|blip[ap]|reverse(d)? ?(pe|phase|blip)?|rev|opposite|distortion ?corr\w*|se ?fmap|se ?field ?map|spin ?echo ?field ?map)\b/,
    // Ahead of the perfusion names: an ASL protocol's spin-echo field map ("PCASL_SpinEchoFieldMap_AP") is a field map.
    // A run that records its b-values (a .bval beside the sidecar, diffusion tags in DICOM) was stored as diffusion data:
    // its b=0 volumes are read with the diffusion run, whatever its name says about their use.
    unless: (f) => f.bValuesRecorded,
    label: 'reversed phase-encoding field map',
    weight: FAMILY_WEIGHT,
    answer: other(BIDS.fmapEpi),
  },
  {
    pattern: /\b(m0|m0 ?scan|asl ?m0|m0 ?asl|proton density ref)\b/,
    label: 'ASL M0 calibration',
    weight: FAMILY_WEIGHT,
    answer: other({ datatype: 'perf', suffix: 'm0scan' }),
  },
  {
    pattern: /pcasl|\b(asl|pasl|casl|perfusion|pulsed ?asl|3d ?asl)\b/,
    label: 'perfusion (ASL)',
    weight: FAMILY_WEIGHT,
    answer: other(BIDS.asl),
  },
  {
    pattern: /\b(b1 ?map|b1|dream|famap|fa ?map|tx ?map|flip ?angle ?map|sa2rage)\b|b1map|b1 ?mapping/,
    label: 'transmit field (B1) map',
    weight: FAMILY_WEIGHT,
    answer: (f, text) => ({ type: 'OTHER', bids: { datatype: 'fmap', suffix: transmitSuffix(f, text) } }),
  },
  {
    // A lone "b0" names a B0 map, unless the name is a diffusion series' (its b=0 volumes).
    // "FM" leading a name of an EPI, spin-echo or diffusion read-out is a field map ("FM_EPI_32chSHC_AP", "FM_DTI_PA");
    // elsewhere it may be functional MRI ("TRA fM REST").
    pattern:
      /field ?map|fmap|phasediff|^fm (epi|se|dti|dwi|diff\w*|gre)\b|\b(b0 ?map|grefield|gre ?field)\b|^(?!.*\b(dti|dwi|diff\w*)\b).*\bb0\b/,
    // ... or the series records diffusion b-values (a .bval file, diffusion tags): then "b0" is its b=0 volumes.
    unless: (f, text) =>
      f.diffusionRecorded && !/field ?map|fmap|phasediff|\b(b0 ?map|grefield|gre ?field)\b/.test(text),
    label: 'field map',
    weight: FAMILY_WEIGHT,
    answer: (f, text) => ({ type: 'OTHER', bids: fieldMapSuffix(f, text) }),
  },
  {
    pattern:
      /\b(localizer|localiser|scout|survey|aahead|aascout|3 ?plane|tri ?pilot|cal(ibration)?|asset ?cal|refscan|pilot)\b/,
    label: 'localizer or calibration',
    weight: DESCRIPTION_WEIGHT,
    answer: other(),
  },
  {
    pattern: /\b(bold|fmri|func|rest(ing)?|task|rs ?fmri|rfmri|tfmri|resting ?state|ep2d ?pace|pace)\b|fmri/,
    label: 'functional (BOLD)',
    weight: 3,
    answer: other(BIDS.bold),
  },
  {
    pattern: /\b(uni|uni ?den|uni ?images|uniform|unit1)\b/,
    label: 'MP2RAGE uniform image',
    weight: 3,
    answer: other({ datatype: 'anat', suffix: 'UNIT1' }),
  },
  {
    pattern: /\b(t1 ?map|t1 ?images|qt1)\b/,
    label: 'T1 map',
    weight: 3,
    answer: other({ datatype: 'anat', suffix: 'T1map' }),
  },
  {
    pattern: /\b(t2 ?star ?map|t2\* ?map|r2 ?star|t2star ?images|t2 ?star ?images)\b/,
    label: 'T2* map',
    weight: 3,
    answer: other({ datatype: 'anat', suffix: 'T2starmap' }),
  },
  {
    pattern: /\b(mp2rage|inv1|inv2|mp2 ?rage)\b|mp2rage/,
    label: 'MP2RAGE',
    weight: 3,
    answer: other(BIDS.MP2RAGE),
  },
  {
    pattern: /\b(mt ?on|mt ?off|mts|mtc|mt ?sat|mtsat|magneti[sz]ation ?transfer|mtr)\b/,
    label: 'magnetization transfer',
    weight: 3,
    answer: other({ datatype: 'anat', suffix: 'MTS' }),
  },
  {
    pattern: /\b(mpm|vfa|megre|mese|t2 ?map|qsm)\b/,
    label: 'quantitative mapping',
    weight: 3,
    answer: (_f, text) => {
      const suffix = /\b(mpm|vfa|megre|mese)\b/.exec(text)?.[1]?.toUpperCase();
      return { type: 'OTHER', bids: suffix ? { datatype: 'anat', suffix } : undefined };
    },
  },
  {
    pattern: /\b(tof|angio|mra|mra ?tof|time of flight|cow|circle of willis|willis|inflow)\b/,
    label: 'angiography',
    weight: FAMILY_WEIGHT,
    answer: other(BIDS.angio),
  },
  { pattern: /\b(pet|pt)\b/, label: 'PET', weight: FAMILY_WEIGHT, answer: other(BIDS.pet) },
  {
    // A gradient echo named susceptibility-weighted is one, however many echoes it samples or whichever image (phase,
    // magnitude) it is: SWI is acquired as a (multi-echo) 3D gradient echo, the same physics as a T2* mapping set, and
    // only the name tells the two apart. It outweighs a mapping or field-map reading of the physics.
    pattern: /\b(swi|swip|swan|susceptib\w*)\b/,
    unless: (f) => f.isEpi || f.diffusionRecorded || (f.isSe && !f.isGre) || f.isIr || f.variant.has('MP'),
    label: 'susceptibility-weighted gradient echo',
    weight: SWI_NAME_WEIGHT,
    answer: (_f, text) => ({
      type: 'SWI',
      bids: /minip|mnip|mip/.test(text) ? { datatype: 'swi', suffix: 'minIP' } : BIDS.T2starw,
    }),
  },
  {
    pattern: /\b(swi|swan|t2 ?star|t2\*|t2s|susceptib\w*|venobold|hemo|gre|minip|mnip|mip sw|qsm)\b/,
    // "gre" names the read-out, not the contrast: a T1 word beside it ("T1_gre_tra") names a T1-weighted FLASH.
    unless: (_f, text) => T1.test(text) && !/\b(swi|swan|t2 ?star|t2\*|t2s|susceptib\w*|minip|mnip)\b/.test(text),
    label: 'susceptibility / T2*',
    weight: DESCRIPTION_WEIGHT,
    answer: (_f, text) => ({
      type: 'SWI',
      bids: /minip|mnip|mip/.test(text) ? { datatype: 'swi', suffix: 'minIP' } : BIDS.T2starw,
    }),
  },
  {
    pattern: /\b(dti|tensor|hardi|([6-9]|[1-9]\d{1,2}) ?(d|dirs?|directions))\b|dti|\bdir ?\d+/,
    label: 'DTI',
    weight: DESCRIPTION_WEIGHT,
    // The b=0 references of a DTI protocol ("DTI_b0_PA", b-values recorded, none above 50 s/mm²) hold no direction.
    answer: (f) => ({ type: f.bValuesRecorded && f.maxB <= 50 ? 'DWI' : 'DTI', bids: BIDS.dwi }),
  },
  {
    pattern: /\b(dwi|diffusion|diff|ep2d diff|b1000|resolve|mddw)\b/,
    label: 'diffusion',
    weight: DESCRIPTION_WEIGHT,
    answer: () => ({ type: 'DWI', bids: BIDS.dwi }),
  },
  {
    pattern: /\b(pd|pdw|pd ?weighted|proton ?density|dp)\b/,
    label: 'proton-density',
    weight: DESCRIPTION_WEIGHT,
    answer: other(BIDS.PDw),
  },
];

const T1 =
  /\b(t1w?|t1 ?weighted|mprage|mp rage|mpr|spgr|fspgr|bravo|tfl|tfe|ir ?spgr|t1 ?ffe|t1 ?tse|t1 ?se|vibe|star ?vibe)\b|\bt1/;
const T2 = /\b(t2w?|t2 ?weighted|t2 ?tse|t2 ?fse|t2 ?space|t2 ?spc|t2 ?cube)\b|\bt2(?! ?star|\*|s\b)/;
const FLAIR = /\b(flair|dark ?fluid|tirm|fluid ?att\w*|da ?fl)\b|flair/;
/**
 * Post-contrast words in English, Italian (mezzo di contrasto), German (Kontrastmittel) and scanner shorthand (a
 * trailing "C" or "+C" on the series name).
 */
const CONTRAST =
  /\b(post|post ?contrast|post ?gad|postgad|post ?gd|gad(o|olinium)?|gd|contrast|c\+|ce|t1c|t1 ?\+ ?c|mdc|km|kontrast\w*|gado\w*)\b|\+ ?c\b|\+ ?gd\b|\s\+?c$/;
const NOT_CONTRAST =
  /\b(pre|pre ?contrast|precontrast|non ?contrast|without contrast|no contrast|native|nativ|senza)\b/;

function contrastEvidence(text: string, quoted: string): Evidence[] {
  const hasT1 = T1.test(text);
  const hasT2 = T2.test(text);
  const hasFlair = FLAIR.test(text);
  if (hasFlair && hasT1 && !hasT2)
    return [
      {
        type: 'T1',
        weight: DESCRIPTION_WEIGHT,
        reason: `description ${quoted} names a T1-weighted FLAIR (dark-fluid T1)`,
        bids: BIDS.T1w,
        fromDescription: true,
      },
    ];
  if (hasFlair)
    return [
      {
        type: 'FLAIR',
        weight: DESCRIPTION_WEIGHT,
        reason: `description ${quoted} names FLAIR`,
        bids: BIDS.FLAIR,
        fromDescription: true,
      },
    ];
  if (hasT1 && !hasT2)
    return [
      {
        type: 'T1',
        weight: DESCRIPTION_WEIGHT,
        reason: `description ${quoted} names a T1-weighted series`,
        bids: BIDS.T1w,
        fromDescription: true,
      },
    ];
  if (hasT2 && !hasT1)
    return [
      {
        type: 'T2',
        weight: DESCRIPTION_WEIGHT,
        reason: `description ${quoted} names a T2-weighted series`,
        bids: BIDS.T2w,
        fromDescription: true,
      },
    ];
  return [];
}

function evidenceFromText(text: string, quoted: string, f: Features): Evidence[] {
  if (!text) return [];
  for (const rule of RULES) {
    if (rule.pattern.test(text) && !rule.unless?.(f, text)) {
      return [
        {
          ...rule.answer(f, text),
          weight: rule.weight,
          reason: `description ${quoted} names a ${rule.label} series`,
          fromDescription: true,
        },
      ];
    }
  }
  return contrastEvidence(text, quoted);
}

/**
 * Description evidence for one series (empty when there is no description). The series description names the series;
 * the protocol name (on some scanners the whole examination's name) is read only when the series description says
 * nothing recognisable.
 */
export function descriptionEvidence(acq: SeriesAcquisition): Evidence[] {
  const f = readFeatures(acq);
  const series = normaliseText(acq.seriesDescription ?? '');
  const fromSeries = evidenceFromText(series, `"${acq.seriesDescription ?? ''}"`, f);
  if (fromSeries.length > 0) return fromSeries;
  return evidenceFromText(normaliseText(acq.protocolName ?? ''), `"${acq.protocolName ?? ''}"`, f);
}

/** True when the description says the series was acquired after contrast (and does not say "pre"/"non-contrast"). */
export function descriptionSaysPostContrast(acq: SeriesAcquisition): boolean {
  const text = normaliseDescription(acq);
  return CONTRAST.test(text) && !NOT_CONTRAST.test(text);
}
