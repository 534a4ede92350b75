import type { BidsSuggestion, ClassifiedType, SeriesAcquisition } from './types.ts';

/** One piece of evidence for a type: weights are added per type, then turned into probabilities (see classify.ts). */
export type Evidence = {
  type: ClassifiedType;
  weight: number;
  reason: string;
  bids?: BidsSuggestion;
  /** The BIDS suffix is read from the headers themselves (ImageType, sequence): it wins over any other evidence's. */
  certainSuffix?: boolean;
  fromDescription?: boolean;
};

/**
 * Evidence weights: how far one observation moves the scores (log-odds-like units). `certain` is for what the
 * headers record outright (diffusion weighting in measured directions): no description outweighs it.
 */
/**
 * The Ernst angle (maximum spoiled gradient-echo signal) at a TR for a tissue T1 of about 1000 ms (brain white and grey
 * matter at 1.5-3 T): arccos(exp(-TR/T1)). A flip near it gives proton-density contrast, well above it T1 contrast.
 */
const TISSUE_T1_MS = 1000;
export const ernstAngle = (trMs: number) => (Math.acos(Math.exp(-trMs / TISSUE_T1_MS)) * 180) / Math.PI;
/** Flip over the Ernst angle from which a spoiled gradient echo is read as T1-weighted, and up to which as PD-weighted. */
export const T1_FLIP_OVER_ERNST = 1.4;
const PD_FLIP_OVER_ERNST = 1.1;

export const WEIGHT = { certain: 6, decisive: 4.5, strong: 3, moderate: 2, weak: 1 } as const;

/**
 * When TR is missing (some hand-written sidecars), echo/flip/inversion rules about contrast weighting cannot be trusted:
 * a multi-echo mapping series and a T2 share one TE. Contrast evidence is scaled down and the OTHER prior usually wins.
 */
const MISSING_TR_FACTOR = 0.2;

const BIDS = {
  T1w: { datatype: 'anat', suffix: 'T1w' },
  T2w: { datatype: 'anat', suffix: 'T2w' },
  FLAIR: { datatype: 'anat', suffix: 'FLAIR' },
  PDw: { datatype: 'anat', suffix: 'PDw' },
  T2starw: { datatype: 'anat', suffix: 'T2starw' },
  MP2RAGE: { datatype: 'anat', suffix: 'MP2RAGE' },
  dwi: { datatype: 'dwi', suffix: 'dwi' },
  bold: { datatype: 'func', suffix: 'bold' },
  sbref: { datatype: 'func', suffix: 'sbref' },
  fmapEpi: { datatype: 'fmap', suffix: 'epi' },
  phasediff: { datatype: 'fmap', suffix: 'phasediff' },
  magnitude: { datatype: 'fmap', suffix: 'magnitude1' },
  asl: { datatype: 'perf', suffix: 'asl' },
  angio: { datatype: 'anat', suffix: 'angio' },
  pet: { datatype: 'pet', suffix: 'pet' },
} as const satisfies Record<string, BidsSuggestion>;
export { BIDS };

/** Upper-case tokens of a multi-valued CS field, whether written "GR\\IR", "GR_IR" or ["GR","IR"]. */
export function tokens(values: string[] | undefined): Set<string> {
  const out = new Set<string>();
  for (const value of values ?? []) {
    for (const part of value.toUpperCase().split(/[\\_,\s/]+/)) if (part) out.add(part);
  }
  return out;
}

/** Sequence identity as the vendor writes it (Siemens SequenceName, PulseSequenceDetails, GE PulseSequenceName). */
function sequenceText(acq: SeriesAcquisition): string {
  return [acq.sequenceName, acq.pulseSequenceDetails, acq.pulseSequenceType].filter(Boolean).join(' ').toLowerCase();
}

export type Features = {
  seq: Set<string>;
  variant: Set<string>;
  options: Set<string>;
  image: Set<string>;
  seqText: string;
  tr?: number;
  te?: number;
  ti?: number;
  fa?: number;
  is3d: boolean;
  isEpi: boolean;
  isGre: boolean;
  isSe: boolean;
  isIr: boolean;
  maxB: number;
  /** Diffusion encoding recorded for the series (b-values, b=0 included, or a direction count): a diffusion run. */
  diffusionRecorded: boolean;
  /** b-values recorded for the series (b=0 included). */
  bValuesRecorded: boolean;
  /** Echoes per excitation where the Siemens sequence name tells it ("fl3d12" = 12 echoes). */
  echoes?: number;
  /** Distinct echo times recorded for the acquisition (SeriesAcquisition.echoTimesMs), 1 when there is one or none. */
  echoTimes: number;
  /** Magnetization-transfer pulse on (ScanOptions MT, SequenceVariant MTC). */
  mt: boolean;
};

export function readFeatures(acq: SeriesAcquisition): Features {
  const seq = tokens(acq.scanningSequence);
  const variant = tokens(acq.sequenceVariant);
  const options = tokens(acq.scanOptions);
  const image = tokens(acq.imageType);
  const seqText = sequenceText(acq);
  const positive = (value: number | undefined) =>
    value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
  const tr = positive(acq.repetitionTimeMs);
  const te = positive(acq.echoTimeMs);
  const ti = positive(acq.inversionTimeMs);
  const fa = positive(acq.flipAngle);
  const name = (acq.sequenceName ?? '').toLowerCase().replace(/^[*_\s]+/, '');
  // Siemens names EPI read-outs ep*/epfid*/epse*; "MOSAIC" (dcm2niix may truncate it to "MOSAI") packs EPI slices.
  const isEpi =
    seq.has('EP') ||
    [...image].some((token) => token.startsWith('MOSAI')) ||
    /^(ep|epfid|epse|ep2d|ep3d)/.test(name) ||
    /ep2d|mbep|epfid|epse|(^|[^a-z])epi([^a-z]|$)/.test(seqText);
  const greByName =
    /(^|[\s*%\\_])(fl|tfl|fm|swi|gre|efgre|fgre|spgr|fspgr|bravo|tfe|ffe|flash|mprage|mp2rage|sa2rage|gradient)/.test(
      seqText,
    ) || /gradient|spgr|flash|mprage/.test(seqText);
  const seByName = /(^|[\s*%\\_])(tse|se|spc|spcir|tir|h2d|fse|cube|vista|tirm|space|haste)/.test(seqText);
  const isGre = seq.has('GR') || (!seq.has('SE') && greByName);
  const isSe = seq.has('SE') || (!seq.has('GR') && seByName);
  const isIr =
    seq.has('IR') ||
    options.has('IR') ||
    [...options].some((o) => o === 'IR' || o.startsWith('IR')) ||
    ti !== undefined;
  const is3d = (acq.mrAcquisitionType ?? '').toUpperCase() === '3D' || /3d/.test(seqText);
  const maxB = Math.max(0, ...(acq.bValues ?? []));
  const echoMatch = /^(?:fl|me|gre)[23]d(\d+)/.exec(name);
  const echoes = echoMatch ? Number(echoMatch[1]) : undefined;
  const mt = options.has('MT') || variant.has('MTC') || options.has('MTC');
  const echoTimes = Math.max(1, new Set((acq.echoTimesMs ?? []).map((value) => Math.round(value * 100))).size);
  const diffusionRecorded = (acq.bValues?.length ?? 0) > 0 || acq.diffusionDirections !== undefined;
  return {
    seq,
    variant,
    options,
    image,
    seqText,
    tr,
    te,
    ti,
    fa,
    is3d,
    isEpi,
    isGre,
    isSe,
    isIr,
    maxB,
    diffusionRecorded,
    bValuesRecorded: (acq.bValues?.length ?? 0) > 0,
    echoes,
    echoTimes,
    mt,
  };
}

const fmt = (value: number) => String(Math.round(value * 100) / 100);

/** ImageType values of scanner-derived diffusion maps and the BIDS-style suffix of each. */
const DERIVED_SUFFIX: Record<string, string> = {
  ADC: 'ADC',
  EADC: 'expADC',
  EXP: 'expADC',
  FA: 'FA',
  COLFA: 'colFA',
  TRACEW: 'trace',
  TRACE: 'trace',
  ISOTROPIC: 'trace',
  CALC_BVALUE: 'trace',
};

function diffusionEvidence(acq: SeriesAcquisition, f: Features): Evidence[] | undefined {
  const derivedMap = [
    'ADC',
    'FA',
    'TRACEW',
    'TRACE',
    'EADC',
    'EXP',
    'TENSOR',
    'COLFA',
    'ISOTROPIC',
    'CALC_BVALUE',
  ].find((token) => f.image.has(token));
  const diffusionImage = f.image.has('DIFFUSION') || f.image.has('DWI');
  const diffusionName = /ep_b\d|ep2d_diff|re_b\d|resolve|_diff|diff_|dwi|dti|\bdiff/.test(f.seqText);
  const directions = acq.diffusionDirections ?? 0;
  const hasDiffusion =
    f.maxB > 50 || directions > 0 || diffusionImage || diffusionName || (acq.bValues?.length ?? 0) > 0;
  if (!hasDiffusion) return undefined;
  if (derivedMap || (f.image.has('DERIVED') && diffusionImage)) {
    return [
      {
        type: 'OTHER',
        weight: WEIGHT.decisive,
        reason: `derived diffusion map (ImageType ${derivedMap ?? 'DERIVED'}), not acquired diffusion data`,
        bids: { datatype: 'dwi', suffix: DERIVED_SUFFIX[derivedMap ?? ''] ?? 'dwi' },
        certainSuffix: derivedMap !== undefined,
      },
    ];
  }
  if (directions >= 6) {
    return [
      {
        type: 'DTI',
        weight: WEIGHT.certain,
        reason: `diffusion encoding in ${directions} distinct directions${f.maxB ? ` up to b=${fmt(f.maxB)} s/mm²` : ''} (≥6 allows a tensor fit)`,
        bids: BIDS.dwi,
      },
    ];
  }
  if (directions >= 1 && f.maxB > 50) {
    return [
      {
        type: 'DWI',
        weight: WEIGHT.certain,
        reason: `diffusion weighting b=${fmt(f.maxB)} s/mm² in ${directions} direction${directions > 1 ? 's' : ''} (fewer than 6: no tensor fit)`,
        bids: BIDS.dwi,
      },
    ];
  }
  if (f.maxB > 50) {
    // b-values known but no gradient vectors: count volumes as the best proxy for directions.
    const volumes = acq.numberOfVolumes ?? 0;
    return volumes >= 7
      ? [
          {
            type: 'DTI',
            weight: WEIGHT.strong,
            reason: `b=${fmt(f.maxB)} s/mm² over ${volumes} volumes (directions not recorded)`,
            bids: BIDS.dwi,
          },
        ]
      : [
          {
            type: 'DWI',
            weight: WEIGHT.strong,
            reason: `b=${fmt(f.maxB)} s/mm²${volumes ? ` over ${volumes} volumes` : ''} (directions not recorded)`,
            bids: BIDS.dwi,
          },
        ];
  }
  if (acq.bValues && acq.bValues.length > 0 && f.maxB <= 50) {
    // A diffusion run whose b-values were written out but are all ~0: the b=0 references of a diffusion protocol.
    return [
      {
        type: 'DWI',
        weight: WEIGHT.decisive,
        reason: 'diffusion run with b=0 volumes only (the references of a diffusion protocol)',
        bids: BIDS.dwi,
      },
    ];
  }
  const volumes = acq.numberOfVolumes ?? 0;
  const what = diffusionImage
    ? 'ImageType DIFFUSION'
    : `diffusion sequence "${acq.sequenceName ?? acq.pulseSequenceDetails ?? ''}"`;
  if (volumes >= 7)
    return [
      {
        type: 'DTI',
        weight: WEIGHT.moderate,
        reason: `${what} with ${volumes} volumes (b-values not recorded)`,
        bids: BIDS.dwi,
      },
    ];
  // No diffusion weighting recorded at all: a lone b=0 volume of a diffusion sequence, i.e. a reversed-phase field
  // map or a single-band reference.
  return [
    {
      type: 'OTHER',
      weight: WEIGHT.moderate,
      reason: `${what} without diffusion weighting recorded: b=0 reference (field map)`,
      bids: BIDS.fmapEpi,
    },
    { type: 'DWI', weight: WEIGHT.weak, reason: `${what}: may be diffusion-weighted`, bids: BIDS.dwi },
  ];
}

function isAsl(f: Features): boolean {
  return f.image.has('ASL') || /pcasl|pasl|\basl|casl|tgse|grs3d|grase|spiral|(^|[^a-z])sp3d/.test(f.seqText);
}

function epiEvidence(acq: SeriesAcquisition, f: Features): Evidence[] {
  if (isAsl(f)) {
    return [{ type: 'OTHER', weight: WEIGHT.decisive, reason: 'arterial spin labelling sequence', bids: BIDS.asl }];
  }
  // A 90° excitation is common in gradient-echo BOLD too: only the sequence type or name says spin echo.
  // BOLD echo times stay at or below 50 ms (1.5 T); an EPI with a longer TE and no diffusion is a spin-echo reference.
  const spinEcho =
    (f.seq.has('SE') && !f.seq.has('GR')) ||
    /epse|ep_se|(^|[^a-z])se2d|ep2d_se/.test(f.seqText) ||
    (f.te !== undefined && f.te >= 60);
  // VASO (vascular space occupancy): a non-selective inversion before an EPI read-out, read out when blood crosses zero
  // (TI about 1 s at 3-7 T) without labelling a slab as ASL does; the images weigh blood volume (BIDS func cbv).
  if (/vaso/.test(f.seqText) || (f.isIr && !f.diffusionRecorded))
    return [
      {
        type: 'OTHER',
        weight: WEIGHT.decisive,
        reason: `inversion-prepared EPI${f.ti ? ` (TI ${fmt(f.ti)} ms)` : ''} without labelling: VASO blood-volume series`,
        bids: { datatype: 'func', suffix: 'cbv' },
        certainSuffix: true,
      },
    ];
  if (f.image.has('SBREF') || /sbref/.test(f.seqText))
    return [
      {
        type: 'OTHER',
        weight: WEIGHT.decisive,
        reason: 'single-band reference of an EPI series',
        bids: BIDS.sbref,
        certainSuffix: true,
      },
    ];
  if (f.image.has('FMRI') || /bold|fmri/.test(f.seqText))
    return [
      {
        type: 'OTHER',
        weight: WEIGHT.strong,
        reason: 'EPI marked functional (ImageType FMRI or a BOLD sequence)',
        bids: BIDS.bold,
      },
    ];
  if (spinEcho) {
    return [
      {
        type: 'OTHER',
        weight: WEIGHT.strong,
        reason: `spin-echo EPI without diffusion encoding${f.te ? ` (TE ${fmt(f.te)} ms)` : ''}: distortion field map or reference`,
        bids: BIDS.fmapEpi,
      },
    ];
  }
  return [
    {
      type: 'OTHER',
      weight: WEIGHT.strong,
      reason: `gradient-echo EPI${f.te ? ` (TE ${fmt(f.te)} ms` : ''}${f.tr ? `, TR ${fmt(f.tr)} ms)` : f.te ? ')' : ''}: functional (BOLD) time series`,
      bids: BIDS.bold,
    },
  ];
}

function inversionEvidence(acq: SeriesAcquisition, f: Features, scale: number): Evidence[] {
  const { te, ti, tr } = f;
  const out: Evidence[] = [];
  if (/mp2rage|sa2rage/.test(f.seqText))
    return [
      {
        type: 'OTHER',
        weight: WEIGHT.decisive,
        reason: 'MP2RAGE/SA2RAGE inversion images (quantitative T1/B1 mapping)',
        bids: BIDS.MP2RAGE,
      },
    ];
  if (te === undefined && ti !== undefined && f.fa !== undefined) {
    // Echo time not recorded: the inversion time and the excitation still separate fluid suppression (long TI, spin
    // echo) from an inversion-prepared T1 gradient echo (short TI, low flip).
    if (ti >= 1400 && f.fa >= 90)
      return [
        {
          type: 'FLAIR',
          weight: WEIGHT.moderate,
          reason: `inversion recovery with long TI ${fmt(ti)} ms and a ${fmt(f.fa)}° excitation (echo time not recorded): FLAIR`,
          bids: BIDS.FLAIR,
        },
      ];
    if (ti < 1400 && f.fa < 30)
      return [
        {
          type: 'T1',
          weight: WEIGHT.moderate,
          reason: `inversion-prepared low-flip (${fmt(f.fa)}°) acquisition with TI ${fmt(ti)} ms (echo time not recorded): T1-weighted`,
          bids: BIDS.T1w,
        },
      ];
  }
  if (ti !== undefined && ti >= 1400 && te !== undefined && te >= 60) {
    out.push({
      type: 'FLAIR',
      weight: WEIGHT.decisive * scale,
      reason: `inversion recovery with long TI ${fmt(ti)} ms and long TE ${fmt(te)} ms: fluid-attenuated T2 (FLAIR)`,
      bids: BIDS.FLAIR,
    });
    return out;
  }
  if (ti !== undefined && ti >= 1400 && te !== undefined && te >= 30) {
    out.push({
      type: 'FLAIR',
      weight: WEIGHT.moderate * scale,
      reason: `inversion recovery with TI ${fmt(ti)} ms and intermediate TE ${fmt(te)} ms`,
      bids: BIDS.FLAIR,
    });
    return out;
  }
  if (ti !== undefined && ti < 350 && te !== undefined && te >= 30) {
    out.push({
      type: 'OTHER',
      weight: WEIGHT.strong * scale,
      reason: `short-TI inversion recovery (TI ${fmt(ti)} ms, TE ${fmt(te)} ms): STIR fat suppression`,
    });
    return out;
  }
  if (te !== undefined && te < 30) {
    if (f.isGre || (!f.isSe && te < 8)) {
      // MPRAGE inverts every 2-3 s with TI 0.8-1.2 s; MP2RAGE repeats every 4-6 s and its second image has TI ≥ 2.5 s.
      if ((tr !== undefined && tr >= 3500 && (f.fa ?? 0) <= 10) || (ti !== undefined && ti >= 2500)) {
        out.push({
          type: 'OTHER',
          weight: WEIGHT.strong * scale,
          reason: `inversion-prepared gradient echo with ${tr !== undefined && tr >= 3500 ? `TR ${fmt(tr)} ms` : `TI ${fmt(ti ?? 0)} ms`} and flip ${fmt(f.fa ?? 0)}°: MP2RAGE-type inversion image`,
          bids: BIDS.MP2RAGE,
        });
        return out;
      }
      out.push({
        type: 'T1',
        weight: WEIGHT.decisive * scale,
        reason: `inversion-prepared gradient echo (TI ${ti ? `${fmt(ti)} ms` : 'set'}, TE ${fmt(te)} ms): T1-weighted (MPRAGE / IR-SPGR)`,
        bids: BIDS.T1w,
      });
      return out;
    }
    out.push({
      type: 'T1',
      weight: WEIGHT.strong * scale,
      reason: `inversion recovery spin echo with short TE ${fmt(te)} ms${ti ? ` and TI ${fmt(ti)} ms` : ''}: T1-weighted (T1 FLAIR / TIR)`,
      bids: BIDS.T1w,
    });
    return out;
  }
  return out;
}

function spinEchoEvidence(f: Features, scale: number): Evidence[] {
  const { te, tr } = f;
  if (te === undefined) return [];
  if (te >= 60) {
    // Without TI (older sidecars omit it), FLAIR shows as a very long TR (2D) or a long TR with the long effective TE of 3D variable-flip-angle TSE.
    // Where ScanningSequence (0018,0020) is recorded it lists IR for an inversion-recovery sequence: a spin echo
    // recorded without it is no FLAIR, however long its TR.
    const inversionRuledOut = f.seq.size > 0 && !f.isIr;
    if (inversionRuledOut && tr !== undefined && tr >= 8000)
      return [
        {
          type: 'T2',
          weight: WEIGHT.strong * scale,
          reason: `spin echo with long TE ${fmt(te)} ms and very long TR ${fmt(tr)} ms, no inversion in ScanningSequence: T2-weighted`,
          bids: BIDS.T2w,
        },
      ];
    if (tr !== undefined && tr >= 8000) {
      return [
        {
          type: 'FLAIR',
          weight: WEIGHT.moderate * scale,
          reason: `long TE ${fmt(te)} ms with very long TR ${fmt(tr)} ms (inversion time not recorded): FLAIR-like`,
          bids: BIDS.FLAIR,
        },
        { type: 'T2', weight: WEIGHT.weak * scale, reason: 'long TE: T2 weighting', bids: BIDS.T2w },
      ];
    }
    if (tr !== undefined && te >= 200 && tr >= 4500) {
      return [
        {
          type: 'FLAIR',
          weight: WEIGHT.moderate * scale,
          reason: `3D variable-flip spin echo (TE ${fmt(te)} ms) with TR ${fmt(tr)} ms (inversion time not recorded): FLAIR-like`,
          bids: BIDS.FLAIR,
        },
        { type: 'T2', weight: WEIGHT.weak * scale, reason: 'long TE: T2 weighting', bids: BIDS.T2w },
      ];
    }
    return [
      {
        type: 'T2',
        weight: WEIGHT.decisive * scale,
        reason: `spin echo with long TE ${fmt(te)} ms${tr ? ` and TR ${fmt(tr)} ms` : ''}: T2-weighted`,
        bids: BIDS.T2w,
      },
    ];
  }
  if (te < 30) {
    if (tr !== undefined && tr < 1200)
      return [
        {
          type: 'T1',
          weight: WEIGHT.decisive * scale,
          reason: `spin echo with short TR ${fmt(tr)} ms and short TE ${fmt(te)} ms: T1-weighted`,
          bids: BIDS.T1w,
        },
      ];
    if (tr !== undefined && tr >= 1500)
      return [
        {
          type: 'OTHER',
          weight: WEIGHT.strong * scale,
          reason: `spin echo with long TR ${fmt(tr)} ms and short TE ${fmt(te)} ms: proton-density weighted`,
          bids: BIDS.PDw,
        },
      ];
    return [];
  }
  return [
    { type: 'T2', weight: WEIGHT.weak * scale, reason: `spin echo with intermediate TE ${fmt(te)} ms`, bids: BIDS.T2w },
    { type: 'OTHER', weight: WEIGHT.weak * scale, reason: 'intermediate TE: proton-density or T2', bids: BIDS.PDw },
  ];
}

/**
 * A gradient echo repeated only every 1-4 s with a BOLD echo time (20-50 ms) and a large flip (≥ 50°): no anatomical
 * gradient echo is timed like this, an EPI time series is (its EPI read-out not recorded, as in some Philips sidecars).
 */
function boldTiming(f: Features): boolean {
  const { tr, te, fa } = f;
  // A 90° flip is a BOLD excitation only where the sequence type says gradient echo; unrecorded, it may be a spin echo.
  const maxFlip = f.seq.has('GR') ? 90 : 89;
  return (
    tr !== undefined &&
    tr >= 1000 &&
    tr <= 4000 &&
    te !== undefined &&
    te >= 20 &&
    te <= 50 &&
    fa !== undefined &&
    fa >= 50 &&
    fa <= maxFlip
  );
}

/**
 * A 3D (segmented) EPI BOLD series whose sidecar records no sequence at all (no ScanningSequence, sequence name or
 * ImageType): a volume every 0.5-4 s at a BOLD echo time (25-50 ms) with the low flip of a segmented read-out
 * (≤ 30°, near the Ernst angle of one segment). An anatomical T2*-weighted gradient echo with a TE that long records its
 * sequence and repeats each line within tens of milliseconds, not a whole volume in seconds.
 */
function segmentedEpiTiming(f: Features, acq: SeriesAcquisition): boolean {
  const { tr, te, fa } = f;
  const nothingRecorded = f.seq.size === 0 && f.seqText === '' && f.image.size === 0 && !acq.sequenceVariant?.length;
  return (
    nothingRecorded &&
    tr !== undefined &&
    tr >= 500 &&
    tr <= 4000 &&
    te !== undefined &&
    te >= 25 &&
    te <= 50 &&
    fa !== undefined &&
    fa <= 30
  );
}

function segmentedEpiEvidence(f: Features): Evidence {
  return {
    type: 'OTHER',
    weight: WEIGHT.strong,
    reason: `a volume every ${fmt(f.tr ?? 0)} ms at TE ${fmt(f.te ?? 0)} ms with flip ${fmt(f.fa ?? 0)}°, no sequence recorded: timed as a 3D-EPI BOLD time series`,
    bids: BIDS.bold,
  };
}

function boldEvidence(f: Features): Evidence {
  return {
    type: 'OTHER',
    weight: WEIGHT.strong,
    reason: `gradient echo with TR ${fmt(f.tr ?? 0)} ms, TE ${fmt(f.te ?? 0)} ms and flip ${fmt(f.fa ?? 0)}°: timed as a BOLD EPI time series`,
    bids: BIDS.bold,
  };
}

function gradientEchoEvidence(acq: SeriesAcquisition, f: Features, scale: number): Evidence[] {
  const { te, tr, fa } = f;
  const phase = f.image.has('P') || f.image.has('PHASE');
  // Philips writes SW into ImageType for its SWIp images (ORIGINAL\PRIMARY\SW\M\FFE).
  if (
    f.image.has('SWI') ||
    f.image.has('SW') ||
    /(^|[\s*%\\_])swi/.test(f.seqText) ||
    f.image.has('MNIP') ||
    f.image.has('MIN IP')
  ) {
    return [
      {
        type: 'SWI',
        weight: WEIGHT.decisive,
        reason: `susceptibility-weighted ${phase ? 'phase' : 'magnitude/processed'} image (SWI sequence or ImageType)`,
        bids: BIDS.T2starw,
      },
    ];
  }
  if (/mp2rage|sa2rage/.test(f.seqText))
    return [{ type: 'OTHER', weight: WEIGHT.decisive, reason: 'MP2RAGE inversion images', bids: BIDS.MP2RAGE }];
  if (te === undefined) return [];
  if (phase && te < 12 && (tr === undefined || tr < 1500)) {
    return [
      {
        type: 'OTHER',
        weight: WEIGHT.strong,
        reason: `gradient-echo phase image with short TE ${fmt(te)} ms: field map`,
        bids: BIDS.phasediff,
      },
    ];
  }
  if (boldTiming(f)) return [boldEvidence(f)];
  if (te >= 15) {
    return [
      {
        type: 'SWI',
        weight: WEIGHT.strong * scale,
        reason: `gradient echo with long TE ${fmt(te)} ms${fa ? ` and flip ${fmt(fa)}°` : ''}: T2*/susceptibility-weighted`,
        bids: BIDS.T2starw,
      },
    ];
  }
  if (te < 10 && tr !== undefined) {
    if (f.variant.has('MP'))
      return [
        {
          type: 'T1',
          weight: WEIGHT.decisive * scale,
          reason: `magnetization-prepared gradient echo (TR ${fmt(tr)} ms, TE ${fmt(te)} ms): T1-weighted`,
          bids: BIDS.T1w,
        },
      ];
    if (tr >= 1500 && tr < 3500 && te < 6 && (fa === undefined || fa <= 15)) {
      return [
        {
          type: 'T1',
          weight: WEIGHT.strong * scale,
          reason: `gradient echo with TE ${fmt(te)} ms, low flip${fa ? ` ${fmt(fa)}°` : ''} and a ${fmt(tr)} ms repetition (inversion-prepared volume, TI not recorded): T1-weighted (MPRAGE)`,
          bids: BIDS.T1w,
        },
      ];
    }
    if (tr >= 3500 && te < 6 && (fa === undefined || fa <= 10)) {
      return [
        {
          type: 'OTHER',
          weight: WEIGHT.strong * scale,
          reason: `gradient echo with TR ${fmt(tr)} ms, low flip: MP2RAGE-type inversion image`,
          bids: BIDS.MP2RAGE,
        },
      ];
    }
    if (tr < 50) {
      // Time-of-flight timing (inflow angiography): a 3D spoiled gradient echo repeated every 15-35 ms with a short TE
      // and a moderate flip (12-25°) saturates static tissue and leaves inflowing blood bright. A 3D T1-weighted FLASH
      // that short usually takes a larger flip (30° or more) or a magnetization preparation, but not always: the timing
      // weighs the same for both, the OTHER prior tips it to angiography, and a T1 word in the description decides.
      if (f.is3d && f.isGre && tr >= 15 && tr <= 35 && te < 7 && fa !== undefined && fa >= 12 && fa <= 25)
        return [
          {
            type: 'OTHER',
            weight: WEIGHT.moderate * scale,
            reason: `3D spoiled gradient echo with TR ${fmt(tr)} ms, TE ${fmt(te)} ms, flip ${fmt(fa)}°: timed as time-of-flight angiography`,
            bids: BIDS.angio,
          },
          {
            type: 'T1',
            weight: WEIGHT.moderate * scale,
            reason: `3D spoiled gradient echo with short TR ${fmt(tr)} ms and flip ${fmt(fa)}°: may be a T1-weighted FLASH`,
            bids: BIDS.T1w,
          },
        ];
      // T1 contrast in a spoiled gradient echo needs a flip well above the Ernst angle of tissue (at or below it the
      // signal is proton-density weighted: field-map magnitudes, low-flip mapping volumes, localizers).
      const ernst = ernstAngle(tr);
      if (fa !== undefined && fa >= 12 && fa >= T1_FLIP_OVER_ERNST * ernst)
        return [
          {
            type: 'T1',
            weight: WEIGHT.decisive * scale,
            reason: `spoiled gradient echo with short TR ${fmt(tr)} ms, TE ${fmt(te)} ms, flip ${fmt(fa)}°: T1-weighted`,
            bids: BIDS.T1w,
          },
        ];
      if (fa !== undefined && (fa < 8 || fa <= PD_FLIP_OVER_ERNST * ernst))
        return [
          {
            type: 'OTHER',
            weight: WEIGHT.moderate * scale,
            reason: `spoiled gradient echo with low flip ${fmt(fa)}° (Ernst angle ${fmt(ernst)}° at TR ${fmt(tr)} ms): proton-density weighted or localizer`,
            bids: BIDS.PDw,
          },
        ];
      return [
        {
          type: 'T1',
          weight: WEIGHT.moderate * scale,
          reason: `spoiled gradient echo with short TR ${fmt(tr)} ms`,
          bids: BIDS.T1w,
        },
      ];
    }
    if (tr >= 100 && tr <= 800 && (fa === undefined || fa >= 60)) {
      return [
        {
          type: 'T1',
          weight: WEIGHT.strong * scale,
          reason: `2D gradient echo with TR ${fmt(tr)} ms and flip ${fa ? `${fmt(fa)}°` : 'large'}: T1-weighted FLASH`,
          bids: BIDS.T1w,
        },
      ];
    }
    if (tr > 450 && tr < 1500) {
      return [
        {
          type: 'OTHER',
          // A guess from timing alone (field maps are named by their sequence, handled earlier): any word outweighs it.
          weight: (WEIGHT.weak / 2) * scale,
          reason: `2D gradient echo with short TE ${fmt(te)} ms and TR ${fmt(tr)} ms: field-map magnitude`,
          bids: BIDS.magnitude,
        },
      ];
    }
  }
  return [];
}

/** Echoes per excitation from which a gradient echo is a multi-echo mapping series rather than one T2*-weighted image. */
const MULTI_ECHO_MAPPING = 6;

/**
 * A series with MULTI_ECHO_MAPPING or more echo times recorded (several EchoNumbers in one DICOM series, or the per-echo
 * files of one acquisition), where the sequence name does not count its echoes: a gradient echo is a multi-echo
 * mapping (MEGRE: T2*, R2*, QSM or FLASH mapping volumes), a spin echo a multi-echo T2 mapping (MESE). An inversion- or
 * magnetization-prepared series (multi-echo MPRAGE) stays T1-weighted; two echoes are a field map's magnitudes or a
 * dual-echo series, not a mapping set.
 */
function multiEchoEvidence(f: Features): Evidence[] | undefined {
  if (f.echoes !== undefined || f.echoTimes < MULTI_ECHO_MAPPING || f.isIr || f.variant.has('MP')) return undefined;
  const spinEcho = f.isSe || (!f.isGre && f.fa !== undefined && f.fa >= 90);
  const gradientEcho = f.isGre || (!f.isSe && f.fa !== undefined && f.fa < 90);
  if (!spinEcho && !gradientEcho) return undefined;
  const mapping: Evidence = {
    type: 'OTHER',
    weight: WEIGHT.strong,
    reason: `${spinEcho ? 'spin' : 'gradient'} echo with ${f.echoTimes} echo times: multi-echo ${spinEcho ? 'T2' : 'T2*'} mapping series`,
    bids: { datatype: 'anat', suffix: spinEcho ? 'MESE' : 'MEGRE' },
  };
  if (spinEcho) return [mapping];
  // The same echoes are what susceptibility-weighted imaging combines: the physics allows SWI, a name decides.
  return [
    mapping,
    {
      type: 'SWI',
      weight: WEIGHT.moderate,
      reason: `gradient echo sampling T2* decay over ${f.echoTimes} echo times: susceptibility-weighted when combined`,
      bids: BIDS.T2starw,
    },
  ];
}

/** Transmit-field (B1) mapping: ImageType B1MAP/TXMAP/FLIP ANGLE MAP, or a B1-mapping sequence. */
function transmitFieldEvidence(f: Features): Evidence[] | undefined {
  const byImage =
    f.image.has('B1MAP') ||
    f.image.has('TXMAP') ||
    f.image.has('REFVOLTMAP') ||
    (f.image.has('FLIP') && f.image.has('ANGLE'));
  let suffix: string | undefined;
  if (/seste/.test(f.seqText)) suffix = 'TB1EPI';
  else if (/sa2rage/.test(f.seqText)) suffix = 'TB1SRGE';
  else if (/dream/.test(f.seqText)) suffix = 'TB1DREAM';
  // Siemens tfl_b1map: a 2D turbo-FLASH repeated only every 5 s or more, so the magnetization fully recovers.
  else if (/(^|[^a-z])tfl2d/.test(f.seqText) && ((f.tr ?? 0) >= 5000 || /b1map|b1_map/.test(f.seqText)))
    suffix = 'TB1TFL';
  else if (/b1map|b1_map|tb1|afi/.test(f.seqText)) suffix = /afi/.test(f.seqText) ? 'TB1AFI' : 'TB1map';
  else if (byImage) suffix = f.isEpi ? 'TB1EPI' : 'TB1DREAM';
  if (!suffix) return undefined;
  return [
    {
      type: 'OTHER',
      weight: WEIGHT.decisive,
      reason: `transmit-field (B1) mapping (${byImage ? 'ImageType' : 'sequence'})`,
      bids: { datatype: 'fmap', suffix },
    },
  ];
}

/** Maps the scanner computed (MP2RAGE uniform image, T1 map, T2* map, division image): ImageType says so. */
function quantitativeMapEvidence(f: Features): Evidence[] | undefined {
  const image = f.image;
  let suffix: string | undefined;
  if (image.has('UNI') || image.has('UNIFORM')) suffix = 'UNIT1';
  else if (image.has('T1') && image.has('MAP')) suffix = 'T1map';
  else if (image.has('T2') && image.has('STAR') && image.has('MAP')) suffix = 'T2starmap';
  else if (image.has('T2') && image.has('MAP')) suffix = 'T2map';
  else if (image.has('DIV')) suffix = 'DIV';
  if (!suffix) return undefined;
  return [
    {
      type: 'OTHER',
      weight: WEIGHT.decisive,
      reason: `scanner-computed ${suffix === 'DIV' ? 'division image' : `map (${suffix})`} from ImageType`,
      bids: suffix === 'DIV' ? undefined : { datatype: 'anat', suffix },
      certainSuffix: suffix !== 'DIV',
    },
  ];
}

/**
 * Evidence from acquisition physics alone (never from descriptions). Ordered as a radiographer reads a protocol:
 * modality, diffusion encoding, EPI read-out, inversion, then echo/repetition/flip for spin and gradient echoes.
 */
export function physicsEvidence(acq: SeriesAcquisition): Evidence[] {
  const modality = (acq.modality ?? 'MR').toUpperCase();
  if (modality !== 'MR' && modality !== '') {
    return [
      {
        type: 'OTHER',
        weight: WEIGHT.decisive * 2,
        reason: `modality ${modality} is not MR`,
        bids: modality === 'PT' ? BIDS.pet : undefined,
      },
    ];
  }
  const f = readFeatures(acq);
  const diffusion = diffusionEvidence(acq, f);
  if (diffusion) return diffusion;
  const transmit = transmitFieldEvidence(f);
  if (transmit) return transmit;
  if (f.isEpi) return epiEvidence(acq, f);
  if (isAsl(f))
    return [{ type: 'OTHER', weight: WEIGHT.decisive, reason: 'arterial spin labelling sequence', bids: BIDS.asl }];
  if (/(^|[^a-z])fm2d|field_map|fieldmap|smaps/.test(f.seqText)) {
    const phase = f.image.has('P') || f.image.has('PHASE');
    return [
      {
        type: 'OTHER',
        weight: WEIGHT.decisive,
        reason: 'field-mapping sequence (B0 map)',
        bids: phase ? BIDS.phasediff : BIDS.magnitude,
        certainSuffix: true,
      },
    ];
  }
  const map = quantitativeMapEvidence(f);
  if (map) return map;
  if (f.mt && !/(^|[^a-z])tof|fl3d1r_t\d/.test(f.seqText) && !f.options.has('TOF') && !f.options.has('VASCTOF'))
    return [
      {
        type: 'OTHER',
        weight: WEIGHT.decisive,
        reason: 'magnetization-transfer pulse on (ScanOptions MT / SequenceVariant MTC): magnetization-transfer set',
        bids: { datatype: 'anat', suffix: 'MTS', entities: { mt: 'on' } },
        certainSuffix: true,
      },
    ];
  if (f.echoes !== undefined && f.echoes >= 2 && f.echoes < MULTI_ECHO_MAPPING && f.isGre)
    return [
      {
        type: 'SWI',
        weight: WEIGHT.strong,
        reason: `gradient echo with ${f.echoes} echoes per excitation: sampling T2* decay (T2*-weighted)`,
        bids: BIDS.T2starw,
      },
    ];
  if (f.echoes !== undefined && f.echoes >= MULTI_ECHO_MAPPING && f.isGre)
    return [
      {
        type: 'OTHER',
        weight: WEIGHT.strong,
        reason: `gradient echo with ${f.echoes} echoes per excitation: multi-echo mapping (T2*/QSM) series`,
        bids: { datatype: 'anat', suffix: 'MEGRE' },
      },
    ];
  const multiEcho = multiEchoEvidence(f);
  if (multiEcho) return multiEcho;
  // Magnetization-prepared gradient echo (Siemens tfl3d, GE BRAVO, Philips 3D TFE, "MPRAGE") without its preparation
  // recorded as such (no IR in ScanningSequence, no MP variant, low flip): a proton-density reference.
  const unprepared =
    f.seq.size > 0 && !f.seq.has('IR') && f.variant.size > 0 && !f.variant.has('MP') && f.ti === undefined;
  if (/tfl3d|tfe3d/.test(f.seqText) && unprepared && (f.fa ?? 99) <= 8)
    return [
      {
        type: 'OTHER',
        weight: WEIGHT.strong,
        reason: `turbo-FLASH volume without inversion or magnetization preparation, flip ${fmt(f.fa ?? 0)}°: proton-density weighted`,
        bids: BIDS.PDw,
      },
    ];
  // The sequence itself names a T1 preparation (Siemens tfl3d, GE BRAVO, Philips 3D TFE, "MPRAGE"); not MP2RAGE timing.
  if (
    /mprage|bravo|tfl3d|tfe3d|t1tfe|t1ffe|cstfl|cmp3d/.test(f.seqText) &&
    !(f.tr !== undefined && f.tr >= 3500) &&
    !(f.ti !== undefined && f.ti >= 2500)
  ) {
    return [
      {
        type: 'T1',
        weight: WEIGHT.decisive,
        reason: `magnetization-prepared gradient echo (${/mprage/.test(f.seqText) ? 'MPRAGE' : `sequence "${acq.sequenceName ?? acq.pulseSequenceDetails ?? ''}"`}): T1-weighted`,
        bids: BIDS.T1w,
      },
    ];
  }
  if (f.image.has('LOCALIZER') || f.image.has('SCOUT'))
    return [{ type: 'OTHER', weight: WEIGHT.decisive, reason: 'localizer (ImageType LOCALIZER)' }];
  // Time-of-flight angiography: short-TR 3D gradient echo that would read as T1, told apart by its sequence (Siemens
  // "fl3d1r_t70": a TONE ramp; GE "tof") or its maximum-intensity projections.
  // A magnetization-prepared gradient echo (SequenceVariant MP: an inversion or saturation before each shot) is not
  // an inflow acquisition, whatever its ImageType says.
  const projection =
    (f.image.has('PROJECTION') || f.image.has('MIP')) && f.isGre && !f.isIr && !f.variant.has('MP') && (f.tr ?? 0) < 60;
  if (
    /(^|[^a-z])tof|fl3d1r_t(\d|m)|_t\d{2}\b/.test(f.seqText) ||
    f.options.has('VASCTOF') ||
    f.options.has('TOF') ||
    f.variant.has('TOF') ||
    projection
  ) {
    return [
      {
        type: 'OTHER',
        weight: WEIGHT.decisive,
        reason: 'time-of-flight angiography (sequence or projection image)',
        bids: BIDS.angio,
      },
    ];
  }
  // Phase-contrast flow: Siemens names a velocity-encoded sequence by its VENC and direction ("fl2d1_v150in",
  // "_v100through"); cardiac-gated cine images carry RETRO / CINE in ImageType. Neither is an anatomical contrast.
  if (/_v\d+(in|through|rl|lr|ap|pa|fh|hf)\b/.test(f.seqText) || f.image.has('RETRO') || f.image.has('CINE')) {
    return [
      {
        type: 'OTHER',
        weight: WEIGHT.decisive,
        reason: 'velocity-encoded (phase-contrast flow) or cardiac-gated cine acquisition',
      },
    ];
  }
  const scale = f.tr === undefined ? MISSING_TR_FACTOR : 1;
  if (f.isIr && !f.isEpi) {
    const inversion = inversionEvidence(acq, f, scale);
    if (inversion.length > 0) return inversion;
  }
  // A flip angle of 90° or more with no sequence type recorded is a spin-echo family read-out (TSE refocusing 120-180°).
  if (!f.isSe && !f.isGre && boldTiming(f)) return [boldEvidence(f)];
  if (segmentedEpiTiming(f, acq)) return [segmentedEpiEvidence(f)];
  // A 3D gradient-echo volume recording only its timing, with a TR under 12 ms and a flip of 10° or less: the TR of a
  // turbo-field-echo read-out is its echo spacing, and the volume is the inversion-prepared T1 (Philips 3D TFE,
  // MPRAGE) whose preparation the sidecar left out. Proton-density references and field-map magnitudes are 2D or
  // record their sequence.
  if (
    f.is3d &&
    f.seq.size === 0 &&
    f.seqText === '' &&
    f.image.size === 0 &&
    f.tr !== undefined &&
    f.tr < 12 &&
    f.te !== undefined &&
    f.te < 6 &&
    f.fa !== undefined &&
    f.fa <= 10
  )
    return [
      {
        type: 'T1',
        weight: WEIGHT.moderate,
        reason: `3D volume with TR ${fmt(f.tr)} ms, TE ${fmt(f.te)} ms and flip ${fmt(f.fa)}°, no sequence recorded: turbo gradient-echo read-out of a prepared T1-weighted volume`,
        bids: BIDS.T1w,
      },
    ];
  const spinEcho = f.isSe || (!f.isGre && f.fa !== undefined && f.fa >= 90);
  const gradientEcho = f.isGre || (!f.isSe && f.fa !== undefined && f.fa < 90);
  const echo = spinEcho ? spinEchoEvidence(f, scale) : gradientEcho ? gradientEchoEvidence(acq, f, scale) : [];
  if (echo.length > 0) return echo;
  if (f.tr !== undefined && f.te !== undefined && f.tr >= 300 && f.tr <= 800 && f.te < 20) {
    // Short TR and short TE weight T1 whether the echo is a spin echo or a gradient echo.
    return [
      {
        type: 'T1',
        weight: WEIGHT.moderate,
        reason: `short TR ${fmt(f.tr)} ms and short TE ${fmt(f.te)} ms (sequence type not recorded): T1-weighted`,
        bids: BIDS.T1w,
      },
    ];
  }
  if (f.tr !== undefined && f.te !== undefined && f.tr < 20 && f.te < 8) {
    return [
      {
        type: 'T1',
        weight: WEIGHT.moderate,
        reason: `very short TR ${fmt(f.tr)} ms and TE ${fmt(f.te)} ms (sequence type not recorded): spoiled gradient-echo T1-weighted volume`,
        bids: BIDS.T1w,
      },
    ];
  }
  if (f.te !== undefined && f.te >= 80 && f.tr !== undefined && f.tr >= 2000) {
    return [
      {
        type: 'T2',
        weight: WEIGHT.moderate,
        reason: `long TE ${fmt(f.te)} ms and long TR ${fmt(f.tr)} ms (sequence type not recorded): T2-weighted`,
        bids: BIDS.T2w,
      },
    ];
  }
  return [];
}

/** Contrast agent recorded in (0018,0010) ContrastBolusAgent: decisive for post-contrast T1 when physics says T1. */
export function hasContrastAgent(acq: SeriesAcquisition): boolean {
  const agent = (acq.contrastAgent ?? '').trim().toLowerCase();
  return agent !== '' && !/^(none|no|n\/a|na|0|-|nil)$/.test(agent);
}
