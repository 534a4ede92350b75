import type { PipelineInput } from '#shared/schemas/workflow.ts';
import { convertDatasetSeries } from '#shared/domain/pipeline/convert-series.ts';
import { taskHandler } from '#functions/lib/task-handler.ts';

const run = taskHandler('ConvertSeries', (input, deps) => convertDatasetSeries(input, deps));

export async function handler(input: PipelineInput): Promise<PipelineInput> {
  return run(input);
}
