import { tokens } from './physics.ts';
import type { ClassifiedType, SeriesAcquisition } from './types.ts';

/**
 * Below this flip angle an excitation tips under 4% of the magnetization a 90° pulse tips (sin 2° ≈ 0.035): the image
 * holds almost no signal, whatever its timing says (docs/classification.md#header-review).
 */
const NEAR_ZERO_FLIP = 2;

/** DICOM ImageType (0008,0008) values of scanner-derived diffusion maps: ADC, trace-weighted, FA, exponential ADC. */
const DIFFUSION_MAPS = ['ADC', 'EADC', 'EXP', 'TRACEW', 'FA'] as const;

/** The answers a diffusion map may carry: the map itself is OTHER, and its source series DWI or DTI. */
const DIFFUSION_ANSWERS = new Set<ClassifiedType>(['OTHER', 'DWI', 'DTI']);

/**
 * The header review of one series (docs/classification.md#header-review): a header fact that contradicts the answer
 * whatever its confidence, asked of a person as a question. A flip angle of 2° or less excites almost no signal (a
 * noise or reference scan, not a contrast-weighted image); an ImageType naming a diffusion map (ADC, TRACEW, …) on a
 * series answered T1, T2, FLAIR or SWI is a derived map whose acquisition columns are its source's. Reads the headers
 * and the answer only. Returns the question, or undefined.
 */
export function reviewHeaders(acquisition: SeriesAcquisition, classifiedType: ClassifiedType): string | undefined {
  const flip = acquisition.flipAngle;
  if (flip !== undefined && flip <= NEAR_ZERO_FLIP && classifiedType !== 'OTHER')
    return `Header review: a flip angle of ${flip}° excites almost no signal; is this a noise or reference scan (OTHER) rather than ${classifiedType}?`;
  const image = tokens(acquisition.imageType);
  const map = DIFFUSION_MAPS.find((value) => image.has(value));
  if (map !== undefined && !DIFFUSION_ANSWERS.has(classifiedType))
    return `Header review: ImageType (0008,0008) names a diffusion map (${map}); is this a derived diffusion map (OTHER) rather than ${classifiedType}?`;
  return undefined;
}
