import type { PipelineInput, SeriesPlan } from '#shared/schemas/workflow.ts';
import { PIPELINE_STAGES } from '#shared/domain/pipeline/stages.ts';
import { resultTaskHandler } from '#functions/lib/task-handler.ts';

const run = resultTaskHandler('ListSeries', PIPELINE_STAGES.ListSeries);

export async function handler(input: PipelineInput): Promise<SeriesPlan> {
  return run(input);
}
