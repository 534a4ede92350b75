import type { PipelineInput } from '#shared/schemas/workflow.ts';
import { buildDatasetTracts } from '#shared/domain/pipeline/build-tracts.ts';
import { taskHandler } from '#functions/lib/task-handler.ts';

const run = taskHandler('BuildTracts', (input, deps) => buildDatasetTracts(input, deps));

export async function handler(input: PipelineInput): Promise<PipelineInput> {
  return run(input);
}
