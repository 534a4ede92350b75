import type { Context } from 'aws-lambda';
import type { PipelineInput } from '#shared/schemas/workflow.ts';
import { PIPELINE_STAGES } from '#shared/domain/pipeline/stages.ts';
import { taskHandler } from '#functions/lib/task-handler.ts';

const run = taskHandler('ClassifySeries', PIPELINE_STAGES.ClassifySeries);

export async function handler(input: PipelineInput, context?: Context): Promise<PipelineInput> {
  return run(input, context);
}
