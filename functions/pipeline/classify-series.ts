import type { PipelineInput } from '#shared/schemas/workflow.ts';
import { classifyDatasetSeries } from '#shared/domain/pipeline/classify-series.ts';
import { taskHandler } from '#functions/lib/task-handler.ts';

const run = taskHandler('ClassifySeries', (input, deps) => classifyDatasetSeries(input, deps));

export async function handler(input: PipelineInput): Promise<PipelineInput> {
  return run(input);
}
