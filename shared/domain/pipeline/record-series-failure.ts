import { PIPELINE_ACTOR } from '#shared/domain/datasets/ports.ts';
import type { PipelineDeps, SeriesStageInput } from './deps.ts';
import { failureReason } from './record-failure.ts';

/**
 * The Catch of a series' branch (docs/pipeline.md#series-in-parallel): the series keeps a reason a person can read,
 * chosen from the error's name as a dataset's is, and the branch ends; the other series go on and the dataset
 * completes without this one's assets. A series deleted meanwhile is left as it is.
 */
export async function recordSeriesFailure(
  input: SeriesStageInput & { error?: { Error: string; Cause?: string } },
  deps: PipelineDeps,
): Promise<void> {
  const { hospitalId, datasetId, seriesId } = input;
  const series = (await deps.datasets.listSeries(hospitalId, datasetId)).find((s) => s.id === seriesId);
  if (!series) return;
  const reason = failureReason(input.error);
  await deps.datasets.updateSeries(hospitalId, datasetId, seriesId, { failureReason: reason });
  await deps.audit.record({
    hospitalId,
    datasetId,
    action: 'SERIES_FAILED',
    ...PIPELINE_ACTOR,
    details: { runId: input.runId, seriesId, reason, error: input.error?.Error ?? null },
  });
}
