/**
 * The vocabulary of acquisition descriptions (SeriesDescription, ProtocolName, StudyDescription...): sequence,
 * weighting, technique, orientation and anatomy words, and the shapes of acquisition parameters ("3D", "1mm", "b1000",
 * "64dir", "p2", "TE115ms"). Clean Descriptors (PS3.15 E.3.5) keeps only these and drops every other word, so a name,
 * a record number or a written date in a description never survives, while what the classifier reads does.
 * Browser-safe and free of the engine's other modules, so the classifier can share it.
 */

/** Lower-case words; each one is safe on its own (not a name, place, date or number). */
export const DESCRIPTOR_WORDS: ReadonlySet<string> = new Set(
  `
  t1 t2 t1w t2w t1c t2s t2star pd pdw pdfs pdw fse flair tirm tir stir dir dark fluid attenuated weighted
  swi swan swip venobold hemo susceptibility minip mnip mip
  dwi dti adc eadc fa colfa trace tracew exp expadc tensor hardi diff diffusion mddw resolve isotropic iso dki noddi
  ep2d ep3d epi epse epgre mb multiband sms bold fmri fmrif func rest resting task asl pasl casl pcasl pcaslhr
  mbpcaslhr m0 m0scan perfusion perf dsc dce dyn dynamic
  mprage mpr mp rage mp2rage sa2rage inv1 inv2 uni mpm mese megre vfa mtsat mt qsm t1map t2map map maps
  tof angio mra mrv pc cow willis circle flight time venous arterial
  spgr fspgr irspgr bravo cube space spc vibe starvibe tfl tfe ffe tse fse frfse se gre fl2d fl3d ir flash fiesta
  ciss haste blade propeller multivane ssfse ssfp trufi bffe lava thrive medic merge mde
  localizer localiser loc scout survey aahead aascout plane planes tri pilot cal calibration asset refscan
  sense grappa ipat nopat cs sbref single band ref reference fieldmap fmap topup phasediff phase magnitude mag pha
  distort distortion b0map b1map b0 b1 shim rev reverse reversed opposite dream tb1
  post pre gd gad gado gadolinium contrast c ce native non without with w wo plus enhanced unenhanced delayed
  dotarem gadovist magnevist multihance prohance omniscan clariscan eovist primovist
  mdc km kontrast kontrastmittel
  ax axi axial sag sagittal cor coronal tra trans transverse obl oblique ap pa lr rl si hf fh
  brain head neck spine cervical thoracic lumbar sacral whole orbit orbits iac pituitary sella hippocampus hippo
  temporal frontal lobe lobes posterior fossa stem cerebellum face sinus sinuses skull base
  pelvis abdomen chest knee shoulder hip ankle wrist heart cardiac liver prostate breast body wb
  ct pet pt mr mri nm spect us cr dx
  high low res hr hires lowres fast thin thick slice slices mosaic moco tclmoco nd norm dis2d dis3d
  fs fatsat fat sat nfs water in out opp ip op dixon echo echoes te tr ti flip shot ss multi bh fb nav vnav
  navigated free breathing still on off run acq rec dir dirs directions vol volume volumes recon reformat
  derived orig original primary secondary accelerated research study series protocol exam routine screening
  followup follow up preop postop wip sequence scan long short isovoxel voxel asc desc interleaved
  `
    .split(/\s+/)
    .filter(Boolean),
);

/** Acquisition parameters: dimensions, sizes, b-values, directions, acceleration, timings, numbered runs. */
const PARAMETER_SHAPES: readonly RegExp[] = [
  /^[1-4]d$/, // 2D, 3D
  /^b(0|[1-9]\d{0,2}0)$/, // b-values: b0, b50, b1000 (round numbers, so "B67890" stays a record number)
  /^\d{1,3}(dirs?|dirn|d|sl|ch|echo|echoes|avg|nex|shots?)$/, // 64dir, 35sl, 32ch
  /^\d{1,2}(p\d)?(mm|cm|iso|t)$/, // 1mm, 2p5mm, 0p8iso, 3T
  /^\d\.\d{1,2}(mm|cm|iso|t)?$/, // 0.9, 1.5T
  /^(p|r|cs|np|af|x)\d$/, // iPAT / SENSE / compressed-sensing factors
  /^(te|tr|ti|fa)\d{1,4}(ms)?$/, // TE115ms
  /^fov\d{2,3}$/,
  /^\d{2,4}x\d{2,4}(x\d{1,4})?$/, // matrix
  /^(fieldmap|run|echo|inv|invcontrast|v|e|part|dir|acq|set)\d{1,2}$/, // run2, echo1, v1
  /^(tfl|fl|tse|se|ep|epi|gre|fse|ir|spc|tir|me|de|h)\d{1,3}[a-z]{0,2}\d{0,2}[a-z]{0,2}$/, // sequence names: tfl3d1
];

/** A bare number is kept only before one of these (e.g. "3 plane", "64 directions"), never alone. */
const NUMBER_UNITS: ReadonlySet<string> = new Set(
  'd dir dirs directions plane planes sl slice slices mm cm ch channel echo echoes t x min sec s ms b vol volumes shot shots avg nex'.split(
    ' ',
  ),
);

/** Letters and digits, with a decimal part ("1.5T", "0.9"); everything between is a separator. */
const TOKEN = /[A-Za-z0-9]+(?:\.[0-9]+[A-Za-z0-9]*)*/g;
/** Separators that may stand between kept words; others (non-ASCII letters above all) are dropped. */
const SEPARATOR_CHARS = /[^ _\-+*/.,:;()&]/g;
/** Trailing or leading marks that carry meaning ("T1+C", "c+", "*tfl3d1"). */
const EDGE_MARKS = /^[+*]+$/;

/** True for one word of the vocabulary (case-insensitive). Bare numbers need their unit: see cleanDescription. */
export function isDescriptorWord(token: string): boolean {
  const word = token.toLowerCase();
  return DESCRIPTOR_WORDS.has(word) || PARAMETER_SHAPES.some((shape) => shape.test(word));
}

/**
 * Keeps the vocabulary's words of a description, with the separators before them, and drops everything else:
 * "T1 MPRAGE D 03Mar2024" → "T1 MPRAGE", "ep2d_diff_mddw_30_p2" → "ep2d_diff_mddw_p2". Linear in the text.
 */
export function cleanDescription(text: string): string {
  const tokens: { word: string; start: number; end: number }[] = [];
  for (const match of text.matchAll(TOKEN)) {
    tokens.push({ word: match[0], start: match.index, end: match.index + match[0].length });
  }
  let out = '';
  let lastEnd = -1;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const next = tokens[i + 1];
    const keep =
      isDescriptorWord(token.word) ||
      (/^\d{1,3}$/.test(token.word) && next !== undefined && NUMBER_UNITS.has(next.word.toLowerCase()));
    if (!keep) continue;
    const before = text.slice(i === 0 ? 0 : tokens[i - 1]!.end, token.start);
    if (lastEnd < 0) {
      if (EDGE_MARKS.test(before)) out += before;
    } else {
      const separator = before.replace(SEPARATOR_CHARS, '');
      out += separator === '' ? ' ' : separator;
    }
    out += token.word;
    lastEnd = token.end;
    const after = text.slice(token.end, next ? next.start : text.length);
    if (EDGE_MARKS.test(after.trim()) && (next === undefined || !isDescriptorWord(next.word))) out += after.trim();
  }
  return out.replace(/\s+/g, ' ').trim();
}
