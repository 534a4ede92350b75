import type { Directory } from '#shared/domain/auth/ports.ts';
import { FAILURE_TASK, PIPELINE_TASKS } from '#shared/pipeline/definition.ts';
import type { PipelineInput } from '#shared/schemas/workflow.ts';
import { buildDatasetReport } from './build-report.ts';
import { buildDatasetSurface } from './build-surface.ts';
import { buildDatasetTracts } from './build-tracts.ts';
import { classifyDatasetSeries } from './classify-series.ts';
import { completeDataset } from './complete-dataset.ts';
import { convertDatasetSeries } from './convert-series.ts';
import { deidentifyStudy } from './deidentify-study.ts';
import type { PipelineDeps } from './deps.ts';
import { failureReason, recordFailure } from './record-failure.ts';

export type StageDeps = PipelineDeps & { directory: Pick<Directory, 'getHospital'> };
export type Stage = (input: PipelineInput, deps: StageDeps) => Promise<void>;
export type StageState = (typeof PIPELINE_TASKS)[number]['state'] | typeof FAILURE_TASK.state;

/**
 * The one implementation of each Task state of shared/pipeline/definition.ts. The Lambda of a state (functions/pipeline)
 * and `iws process` both run the function named here, so the cloud, the local twin and the CLI give the same assets.
 */
export const PIPELINE_STAGES: Record<StageState, Stage> = {
  DeidentifyStudy: deidentifyStudy,
  ClassifySeries: classifyDatasetSeries,
  ConvertSeries: convertDatasetSeries,
  BuildSurface: buildDatasetSurface,
  BuildTracts: buildDatasetTracts,
  BuildReport: buildDatasetReport,
  CompleteDataset: completeDataset,
  RecordFailure: recordFailure,
};

export type StagesOutcome = { ok: true } | { ok: false; state: StageState; reason: string };

/**
 * Runs the Task states in the definition's order in this process, as the state machine does (without its retries):
 * a stage that throws goes to RecordFailure with the error's name, as the definition's Catch does.
 */
export async function runPipelineStages(
  input: PipelineInput,
  deps: StageDeps,
  onStage?: (state: StageState, ms: number) => void,
): Promise<StagesOutcome> {
  for (const task of PIPELINE_TASKS) {
    const started = performance.now();
    try {
      await PIPELINE_STAGES[task.state](input, deps);
    } catch (error) {
      const failure = { Error: error instanceof Error ? error.name : 'Error' };
      await PIPELINE_STAGES[FAILURE_TASK.state]({ ...input, error: failure }, deps);
      return { ok: false, state: task.state, reason: failureReason(failure) };
    }
    onStage?.(task.state, performance.now() - started);
  }
  return { ok: true };
}
