import type { PipelineInput } from '#shared/schemas/workflow.ts';
import { buildDatasetReport } from '#shared/domain/pipeline/build-report.ts';
import { taskHandler } from '#functions/lib/task-handler.ts';

const run = taskHandler('BuildReport', (input, deps) => buildDatasetReport(input, deps));

export async function handler(input: PipelineInput): Promise<PipelineInput> {
  return run(input);
}
