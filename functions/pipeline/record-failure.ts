import type { PipelineInput } from '#shared/schemas/workflow.ts';
import { recordFailure } from '#shared/domain/pipeline/record-failure.ts';
import { taskHandler } from '#functions/lib/task-handler.ts';

const run = taskHandler('RecordFailure', (input, deps) => recordFailure(input, deps));

export async function handler(input: PipelineInput): Promise<PipelineInput> {
  return run(input);
}
