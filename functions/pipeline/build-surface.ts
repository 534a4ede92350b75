import type { PipelineInput } from '#shared/schemas/workflow.ts';
import { buildDatasetSurface } from '#shared/domain/pipeline/build-surface.ts';
import { taskHandler } from '#functions/lib/task-handler.ts';

const run = taskHandler('BuildSurface', (input, deps) => buildDatasetSurface(input, deps));

export async function handler(input: PipelineInput): Promise<PipelineInput> {
  return run(input);
}
