import {
  acquisitionFromDicom,
  classifySeries as classify,
  LOW_CONFIDENCE_THRESHOLD,
  reviewHeaders,
  reviewStudy,
  type SeriesAcquisition,
} from '#shared/dicom/classify/index.ts';
import { unpackHeaders } from '#shared/dicom/header-bundle.ts';
import { parseDicom, withoutPixelData } from '#shared/dicom/parse.ts';
import { PIPELINE_ACTOR } from '#shared/domain/datasets/ports.ts';
import { ConflictError } from '#shared/domain/errors.ts';
import { studyKeys } from '#shared/domain/object-keys.ts';
import {
  loadDataset,
  loadSeries,
  mapInOrder,
  OBJECT_READ_CONCURRENCY,
  type PipelineDeps,
  type SeriesStageInput,
  type StageInput,
} from './deps.ts';

/**
 * CLASSIFYING, one series (a branch of the Map state, docs/pipeline.md#series-in-parallel): its acquisition (physics
 * and descriptions) read from its de-identified files, classified, stored with source AI and a low-confidence flag
 * (below the fitted threshold, or asked about by the header review).
 * A series a person already classified keeps the person's label. A reason left by an earlier failed run is cleared.
 */
export async function classifyOneSeries(input: SeriesStageInput, deps: PipelineDeps): Promise<void> {
  // Another branch may already have moved the dataset on to PROCESSING.
  const dataset = await loadDataset(deps, input);
  if (dataset.status !== 'CLASSIFYING' && dataset.status !== 'PROCESSING') throw new ConflictError();
  const { hospitalId, datasetId } = input;
  const series = await loadSeries(deps, input);
  const cleared = series.failureReason === undefined ? {} : { failureReason: undefined };
  if (series.classification) {
    if (series.failureReason !== undefined) await deps.datasets.updateSeries(hospitalId, datasetId, series.id, cleared);
    return;
  }
  const headers = await readSeriesHeaders(deps, hospitalId, datasetId, series.seriesInstanceUID);
  const acquisition = acquisitionFromDicom(headers);
  const classified = classify(acquisition);
  // The header review (docs/classification.md#header-review): a header fact that contradicts the answer flags it
  // whatever its confidence, its question added to the reasons.
  const question = reviewHeaders(acquisition, classified.classifiedType);
  const result = question === undefined ? classified : { ...classified, reasons: [...classified.reasons, question] };
  const isLow = result.confidence < LOW_CONFIDENCE_THRESHOLD || question !== undefined;
  await deps.datasets.updateSeries(hospitalId, datasetId, series.id, {
    classification: { ...result, source: 'AI', createdAt: deps.clock.now() },
    lowConfidence: isLow,
    ...cleared,
  });
  await deps.audit.record({
    hospitalId,
    datasetId,
    action: 'SERIES_CLASSIFIED_AI',
    ...PIPELINE_ACTOR,
    details: {
      runId: input.runId,
      seriesId: series.id,
      counts: { [result.classifiedType]: 1 },
      lowConfidence: isLow ? 1 : 0,
    },
  });
}

/**
 * The study review of the classifications (docs/classification.md#study-review), once every series' branch has ended:
 * the series of the study read together, and a series the review asks about (two T1-weighted series, neither stating
 * a contrast agent: which is post-contrast? one T1, post-contrast by its description alone: is it? no T1-weighted
 * series: is this MP2RAGE image the T1?) is flagged for review
 * with the question added to its reasons. Only the
 * model's answers are flagged; a person's label counts as a statement (T1 + contrast states the contrast). Runs again
 * on a retry without adding the question twice. The acquisitions are read (one header per series) only for the T1
 * series the review may ask about.
 */
export async function reviewStudyClassifications(input: StageInput, deps: PipelineDeps): Promise<void> {
  const { hospitalId, datasetId } = input;
  const series = (await deps.datasets.listSeries(hospitalId, datasetId)).filter((s) => s.classification);
  const isT1 = (type: string | undefined) => type === 'T1' || type === 'T1_CONTRAST';
  const t1 = series.filter((s) => isT1(s.classification?.classifiedType));
  // The review asks about a T1 pair, a lone T1 whose contrast only its description states, or, where no series reads
  // T1-weighted, about the MP2RAGE images (study.ts).
  if (t1.length > 2) return;
  const acquisitions = new Map<string, SeriesAcquisition>();
  for (const s of t1) {
    const [first] = await deps.objects.list('studies', studyKeys.series(hospitalId, datasetId, s.seriesInstanceUID));
    if (!first) continue;
    const bytes = await deps.objects.get('studies', first.key);
    acquisitions.set(s.id, acquisitionFromDicom([withoutPixelData(parseDicom(bytes), bytes)]));
  }
  const reasons = reviewStudy(
    series.map((s) => ({
      classifiedType: s.classification!.classifiedType,
      suffix: s.classification!.bids.suffix,
      acquisition: acquisitions.get(s.id),
    })),
  );
  const flagged: string[] = [];
  for (const [index, s] of series.entries()) {
    const reason = reasons[index];
    const classification = s.classification!;
    if (reason === undefined || classification.source !== 'AI' || classification.reasons.includes(reason)) continue;
    await deps.datasets.updateSeries(hospitalId, datasetId, s.id, {
      classification: { ...classification, reasons: [...classification.reasons, reason] },
      lowConfidence: true,
    });
    flagged.push(s.id);
  }
  if (flagged.length === 0) return;
  await deps.audit.record({
    hospitalId,
    datasetId,
    action: 'SERIES_CLASSIFIED_AI',
    ...PIPELINE_ACTOR,
    details: { runId: input.runId, studyReview: true, seriesIds: flagged, lowConfidence: flagged.length },
  });
}

/**
 * Headers of one series, a few files at a time: pixel data is dropped as each file is read, so memory stays bounded
 * by OBJECT_READ_CONCURRENCY files.
 */
async function readSeriesHeaders(
  deps: PipelineDeps,
  hospitalId: string,
  datasetId: string,
  seriesUID: string,
): Promise<Uint8Array[]> {
  // The series' header bundle when the de-identify stage wrote one (docs/pipeline.md#series-headers): one read.
  const bundleKey = studyKeys.seriesHeaders(hospitalId, datasetId, seriesUID);
  const [bundle] = (await deps.objects.list('studies', bundleKey)).filter((o) => o.key === bundleKey);
  if (bundle) return unpackHeaders(await deps.objects.get('studies', bundleKey));
  // A dataset de-identified before bundles were written: every file, for its header.
  const objects = await deps.objects.list('studies', studyKeys.series(hospitalId, datasetId, seriesUID));
  return mapInOrder(objects, OBJECT_READ_CONCURRENCY, async (object) => {
    const bytes = await deps.objects.get('studies', object.key);
    return withoutPixelData(parseDicom(bytes), bytes);
  });
}
