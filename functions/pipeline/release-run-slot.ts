import type { Context } from 'aws-lambda';
import type { PipelineInput } from '#shared/schemas/workflow.ts';
import { releaseRunSlot } from '#shared/domain/pipeline/run-slots.ts';
import { taskHandler } from '#functions/lib/task-handler.ts';

const run = taskHandler('ReleaseRunSlot', (input, deps) => releaseRunSlot(input, deps));

export async function handler(input: PipelineInput, context?: Context): Promise<PipelineInput> {
  return run(input, context);
}
