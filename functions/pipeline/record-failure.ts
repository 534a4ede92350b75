import type { Context } from 'aws-lambda';
import type { PipelineInput } from '#shared/schemas/workflow.ts';
import { PIPELINE_STAGES } from '#shared/domain/pipeline/stages.ts';
import { countForHospital } from '#functions/lib/metrics.ts';
import { taskHandler } from '#functions/lib/task-handler.ts';

const run = taskHandler('RecordFailure', async (input, deps) => {
  await PIPELINE_STAGES.RecordFailure(input, deps);
  countForHospital('DatasetsFailed', input.hospitalId);
});

export async function handler(input: PipelineInput, context?: Context): Promise<PipelineInput> {
  return run(input, context);
}
