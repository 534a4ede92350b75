import type { Context } from 'aws-lambda';
import type { PipelineInput, SeriesPlan } from '#shared/schemas/workflow.ts';
import { PIPELINE_STAGES } from '#shared/domain/pipeline/stages.ts';
import { resultTaskHandler } from '#functions/lib/task-handler.ts';

const run = resultTaskHandler('ListSeries', PIPELINE_STAGES.ListSeries);

export async function handler(input: PipelineInput, context?: Context): Promise<SeriesPlan> {
  return run(input, context);
}
