import type { PipelineInput } from '#shared/schemas/workflow.ts';
import { deidentifyStudy } from '#shared/domain/pipeline/deidentify-study.ts';
import { taskHandler } from '#functions/lib/task-handler.ts';

const run = taskHandler('DeidentifyStudy', (input, deps) => deidentifyStudy(input, deps));

export async function handler(input: PipelineInput): Promise<PipelineInput> {
  return run(input);
}
