import {
  acquisitionFromDicom,
  classifySeries as classify,
  LOW_CONFIDENCE_THRESHOLD,
} from '#shared/dicom/classify/index.ts';
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
} from './deps.ts';

/**
 * CLASSIFYING, one series (a branch of the Map state, docs/pipeline.md#series-in-parallel): its acquisition (physics
 * and descriptions) read from its de-identified files, classified, stored with source AI and a low-confidence flag.
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
  const result = classify(acquisitionFromDicom(headers));
  const isLow = result.confidence < LOW_CONFIDENCE_THRESHOLD;
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
 * Headers of one series, a few files at a time: pixel data is dropped as each file is read, so memory stays bounded
 * by OBJECT_READ_CONCURRENCY files.
 */
async function readSeriesHeaders(
  deps: PipelineDeps,
  hospitalId: string,
  datasetId: string,
  seriesUID: string,
): Promise<Uint8Array[]> {
  const objects = await deps.objects.list('studies', studyKeys.series(hospitalId, datasetId, seriesUID));
  return mapInOrder(objects, OBJECT_READ_CONCURRENCY, async (object) => {
    const bytes = await deps.objects.get('studies', object.key);
    return withoutPixelData(parseDicom(bytes), bytes);
  });
}
