import { acquisitionFromDicom, classifySeries as classify, LOW_CONFIDENCE_THRESHOLD } from '../../dicom/classify/index.ts';
import { PIPELINE_ACTOR } from '../datasets/ports.ts';
import { enterStage, readSeriesFiles, type PipelineDeps, type StageInput } from './deps.ts';

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
    const files = await readSeriesFiles(deps, hospitalId, datasetId, s.seriesInstanceUID);
    const result = classify(acquisitionFromDicom(files.map((f) => f.bytes)));
    const isLow = result.confidence < LOW_CONFIDENCE_THRESHOLD;
    await deps.datasets.updateSeries(hospitalId, datasetId, s.id, {
      classification: { ...result, source: 'AI', createdAt: deps.clock.now() },
      lowConfidence: isLow,
    });
    counts[result.classifiedType] = (counts[result.classifiedType] ?? 0) + 1;
    if (isLow) lowConfidence += 1;
  }
  await deps.audit.record({ hospitalId, datasetId, action: 'SERIES_CLASSIFIED_AI', ...PIPELINE_ACTOR, details: { runId: input.runId, counts, lowConfidence } });
}
