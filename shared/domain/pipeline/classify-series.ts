import {
  acquisitionFromDicom,
  classifySeries as classify,
  LOW_CONFIDENCE_THRESHOLD,
} from '#shared/dicom/classify/index.ts';
import { parseDicom, withoutPixelData } from '#shared/dicom/parse.ts';
import { PIPELINE_ACTOR } from '#shared/domain/datasets/ports.ts';
import { studyKeys } from '#shared/domain/object-keys.ts';
import { enterStage, type PipelineDeps, type StageInput } from './deps.ts';

/**
 * CLASSIFYING: each series' acquisition (physics and descriptions) read from its de-identified files, classified,
 * stored with source AI and a low-confidence flag. A series a person already classified keeps the person's label.
 */
export async function classifyDatasetSeries(input: StageInput, deps: PipelineDeps): Promise<void> {
  await enterStage(deps, input, 'ANONYMIZING', 'CLASSIFYING');
  const { hospitalId, datasetId } = input;
  const series = await deps.datasets.listSeries(hospitalId, datasetId);
  const counts: Record<string, number> = {};
  let lowConfidence = 0;
  for (const s of series) {
    if (s.classification) continue;
    const headers = await readSeriesHeaders(deps, hospitalId, datasetId, s.seriesInstanceUID);
    const result = classify(acquisitionFromDicom(headers));
    const isLow = result.confidence < LOW_CONFIDENCE_THRESHOLD;
    await deps.datasets.updateSeries(hospitalId, datasetId, s.id, {
      classification: { ...result, source: 'AI', createdAt: deps.clock.now() },
      lowConfidence: isLow,
    });
    counts[result.classifiedType] = (counts[result.classifiedType] ?? 0) + 1;
    if (isLow) lowConfidence += 1;
  }
  await deps.audit.record({
    hospitalId,
    datasetId,
    action: 'SERIES_CLASSIFIED_AI',
    ...PIPELINE_ACTOR,
    details: { runId: input.runId, counts, lowConfidence },
  });
}

/** Headers of one series, read file by file: pixel data is dropped as each file is read, so memory stays bounded. */
async function readSeriesHeaders(
  deps: PipelineDeps,
  hospitalId: string,
  datasetId: string,
  seriesUID: string,
): Promise<Uint8Array[]> {
  const objects = await deps.objects.list('studies', studyKeys.series(hospitalId, datasetId, seriesUID));
  const headers: Uint8Array[] = [];
  for (const object of objects) {
    const bytes = await deps.objects.get('studies', object.key);
    headers.push(withoutPixelData(parseDicom(bytes), bytes));
  }
  return headers;
}
