import type { PipelineInput } from '#shared/schemas/workflow.ts';
import { completeDataset } from '#shared/domain/pipeline/complete-dataset.ts';
import { taskHandler } from '#functions/lib/task-handler.ts';

const run = taskHandler('CompleteDataset', (input, deps) => completeDataset(input, deps));

export async function handler(input: PipelineInput): Promise<PipelineInput> {
  return run(input);
}
