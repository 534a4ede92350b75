import { hasContrastAgent, readFeatures } from './physics.ts';
import type { ClassifiedType, SeriesAcquisition } from './types.ts';

/**
 * One series of a study as the study review sees it: its answer, its BIDS suffix where given and, where known, its
 * acquisition.
 */
export type StudySeries = { classifiedType: ClassifiedType; suffix?: string; acquisition?: SeriesAcquisition };

/**
 * The question the study review asks of a series, in the person's words (it is added to the series' reasons). The
 * second form names the 3D volume of a 2D / 3D pair.
 */
export const POST_CONTRAST_QUESTION =
  'Study review: this study holds two T1-weighted series and neither states a contrast agent; is this one post-contrast (T1 + contrast)?';
export const MISSING_T1_QUESTION =
  "Study review: no series of this study reads as T1-weighted, and this MP2RAGE image may be the study's T1-weighted anatomy; is it (T1)?";
export const POST_CONTRAST_ALONE_QUESTION =
  'Study review: this is the only T1-weighted series of the study, and only its description states contrast (no agent recorded); is it post-contrast (T1 + contrast) rather than T1?';
export const POST_CONTRAST_VOLUME_QUESTION =
  'Study review: this study holds two T1-weighted series, a 3D volume and a 2D one, and neither states a contrast agent; is this volume post-contrast (T1 + contrast)?';

/**
 * Reviews the series of one study together (docs/classification.md#study-review): a post-contrast T1 whose headers and
 * description say nothing of contrast reads as T1, which no reading of the series alone can tell. A study holding
 * exactly two T1-weighted series, neither stated post-contrast, is the pre / post pair of a contrast study or a repeat:
 * the series that could be post-contrast are flagged for a person, with the question as their reason. Where one is a 3D
 * volume and the other is not, the volume is the one asked about (post-contrast T1 is usually acquired as a volume after
 * a 2D survey); otherwise both are. A study where a T1 states its contrast, or with three T1 series or more (research
 * sessions repeat and vary their T1 runs), is left as it is. A study whose only T1 is post-contrast by its description
 * alone is asked about too (loneStatedContrast), and so is a study with no T1 but MP2RAGE images (missingT1).
 * Returns, for each series in the order given, the reason to flag it, or undefined.
 */
export function reviewStudy(series: readonly StudySeries[]): (string | undefined)[] {
  const t1 = series.flatMap((item, index) =>
    item.classifiedType === 'T1' || item.classifiedType === 'T1_CONTRAST' ? [index] : [],
  );
  const answers: (string | undefined)[] = series.map(() => undefined);
  if (t1.length === 0) return missingT1(series, answers);
  if (t1.length === 1) return loneStatedContrast(series, t1[0]!, answers);
  if (t1.length !== 2 || t1.some((index) => series[index]!.classifiedType === 'T1_CONTRAST')) return answers;
  const volume = t1.filter((index) => readFeatures(series[index]!.acquisition ?? {}).is3d);
  if (volume.length === 1) answers[volume[0]!] = POST_CONTRAST_VOLUME_QUESTION;
  else for (const index of t1) answers[index] = POST_CONTRAST_QUESTION;
  return answers;
}

/**
 * A study in which no series reads as T1-weighted, but MP2RAGE images do (docs/classification.md#study-review): a
 * session's T1-weighted anatomy is then most often one of them, which datasets file as T1w (the uniform image, or one
 * inversion image of a TR-FOCI or MP2RAGE protocol whose other images were not kept). The uniform images (UNIT1) are
 * asked about where there are any, else the inversion images (MP2RAGE).
 */
function missingT1(series: readonly StudySeries[], answers: (string | undefined)[]): (string | undefined)[] {
  for (const suffix of ['UNIT1', 'MP2RAGE']) {
    const candidates = series.flatMap((item, index) => (item.suffix === suffix ? [index] : []));
    if (candidates.length === 0) continue;
    for (const index of candidates) answers[index] = MISSING_T1_QUESTION;
    return answers;
  }
  return answers;
}

/**
 * A study whose only T1-weighted series is post-contrast by its description alone (docs/classification.md#study-review):
 * a contrast study acquires the T1 before and after the agent, and the Contrast/Bolus module (DICOM PS3.3 C.7.6.4)
 * records the agent where one was given. With neither, the description's contrast word is asked about. A T1 whose
 * agent is recorded, or whose acquisition is unknown, is left as it is.
 */
function loneStatedContrast(
  series: readonly StudySeries[],
  index: number,
  answers: (string | undefined)[],
): (string | undefined)[] {
  const { classifiedType, acquisition } = series[index]!;
  if (classifiedType === 'T1_CONTRAST' && acquisition !== undefined && !hasContrastAgent(acquisition))
    answers[index] = POST_CONTRAST_ALONE_QUESTION;
  return answers;
}
