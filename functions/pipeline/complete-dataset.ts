import type { Context } from 'aws-lambda';
import type { PipelineInput } from '#shared/schemas/workflow.ts';
import { PIPELINE_STAGES } from '#shared/domain/pipeline/stages.ts';
import { countForHospital } from '#functions/lib/metrics.ts';
import { taskHandler } from '#functions/lib/task-handler.ts';

const run = taskHandler('CompleteDataset', async (input, deps) => {
  await PIPELINE_STAGES.CompleteDataset(input, deps);
  // The last move is COMPLETE, or FAILED when every series failed (docs/pipeline.md#series-in-parallel).
  const dataset = await deps.datasets.get(input.hospitalId, input.datasetId);
  countForHospital(dataset?.status === 'COMPLETE' ? 'DatasetsCompleted' : 'DatasetsFailed', input.hospitalId);
});

export async function handler(input: PipelineInput, context?: Context): Promise<PipelineInput> {
  return run(input, context);
}
