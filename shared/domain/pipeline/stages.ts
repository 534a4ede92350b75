import type { Directory } from '#shared/domain/auth/ports.ts';
import type { PolicyReader } from '#shared/domain/settings/policies.ts';
import {
  FAILURE_TASK,
  FINISH_TASKS,
  type PIPELINE_TASKS,
  SERIES_FAILURE_TASK,
  SERIES_TASKS,
  STUDY_TASKS,
} from '#shared/definitions/state-machine.ts';
import type { PipelineInput, SeriesPlan } from '#shared/schemas/workflow.ts';
import { buildDatasetReport } from './build-report.ts';
import { buildDatasetSurface } from './build-surface.ts';
import { buildSeriesTracts } from './build-tracts.ts';
import { classifyOneSeries } from './classify-series.ts';
import { completeDataset } from './complete-dataset.ts';
import { convertOneSeries } from './convert-series.ts';
import { deidentifyStudy } from './deidentify-study.ts';
import type { PipelineDeps, SeriesStageInput } from './deps.ts';
import { listDatasetSeries } from './list-series.ts';
import { failureReason, recordFailure } from './record-failure.ts';
import { recordSeriesFailure } from './record-series-failure.ts';

/** `settings` gives the hospital's policy (the Map's concurrency); absent where none is kept (`iws process`). */
export type StageDeps = PipelineDeps & { directory: Pick<Directory, 'getHospital'>; settings?: PolicyReader };
export type Stage = (input: PipelineInput, deps: StageDeps) => Promise<void>;
export type StageState =
  (typeof PIPELINE_TASKS)[number]['state'] | typeof FAILURE_TASK.state | typeof SERIES_FAILURE_TASK.state;

/** A stage of a series' branch: its input must name the series (the Map state's ItemSelector puts it there). */
function inSeries(stage: (input: SeriesStageInput, deps: StageDeps) => Promise<void>): Stage {
  return (input, deps) => {
    if (!input.seriesId) throw new Error('A series stage ran without a seriesId');
    return stage({ ...input, seriesId: input.seriesId }, deps);
  };
}

/**
 * The one implementation of each Task state of shared/definitions/state-machine.ts. The Lambda of a state (functions/pipeline)
 * and `iws process` both run the function named here, so every executor of the pipeline and the CLI give the same
 * assets.
 */
export const PIPELINE_STAGES = {
  DeidentifyStudy: deidentifyStudy,
  ListSeries: listDatasetSeries,
  ClassifySeries: inSeries(classifyOneSeries),
  ConvertSeries: inSeries(convertOneSeries),
  BuildTracts: inSeries(buildSeriesTracts),
  RecordSeriesFailure: inSeries(recordSeriesFailure),
  BuildSurface: buildDatasetSurface,
  BuildReport: buildDatasetReport,
  CompleteDataset: completeDataset,
  RecordFailure: recordFailure,
} satisfies Record<StageState, (input: PipelineInput, deps: StageDeps) => Promise<unknown>>;

export type FailedSeries = { seriesId: string; state: StageState; reason: string };
export type StagesOutcome =
  | { ok: true; failedSeries?: FailedSeries[] }
  | { ok: false; state: StageState; reason: string; failedSeries?: FailedSeries[] };

const caught = (error: unknown) => ({ Error: error instanceof Error ? error.name : 'Error' });

/**
 * Runs the Task states in the definition's order in this process, as the state machine does (without its retries),
 * the series one after another where the Map state runs them side by side: a series stage that throws goes to
 * RecordSeriesFailure and that series stops, a study stage that throws goes to RecordFailure, as the definition's
 * Catches do. `onStage` gets each state once, with its time summed over the series.
 */
export async function runPipelineStages(
  input: PipelineInput,
  deps: StageDeps,
  onStage?: (state: StageState, ms: number) => void,
): Promise<StagesOutcome> {
  const failedSeries: FailedSeries[] = [];
  const withSeries = () => (failedSeries.length > 0 ? { failedSeries } : {});
  const fail = async (state: StageState, error: unknown): Promise<StagesOutcome> => {
    const failure = caught(error);
    await PIPELINE_STAGES[FAILURE_TASK.state]({ ...input, error: failure }, deps);
    return { ok: false, state, reason: failureReason(failure), ...withSeries() };
  };
  const timed = async <T>(run: () => Promise<T>): Promise<[T, number]> => {
    const started = performance.now();
    const value = await run();
    return [value, performance.now() - started];
  };

  let plan: SeriesPlan | undefined;
  for (const task of STUDY_TASKS) {
    try {
      const [result, ms] = await timed<unknown>(() => PIPELINE_STAGES[task.state](input, deps));
      if (task.state === 'ListSeries') plan = result as SeriesPlan;
      onStage?.(task.state, ms);
    } catch (error) {
      return fail(task.state, error);
    }
  }
  const seriesMs = new Map<StageState, number>();
  for (const seriesId of plan?.seriesIds ?? []) {
    const branch = { ...input, seriesId };
    for (const task of SERIES_TASKS) {
      try {
        const [, ms] = await timed(() => PIPELINE_STAGES[task.state](branch, deps));
        seriesMs.set(task.state, (seriesMs.get(task.state) ?? 0) + ms);
      } catch (error) {
        const failure = caught(error);
        try {
          await PIPELINE_STAGES[SERIES_FAILURE_TASK.state]({ ...branch, error: failure }, deps);
        } catch (recording) {
          return fail(task.state, recording);
        }
        failedSeries.push({ seriesId, state: task.state, reason: failureReason(failure) });
        break;
      }
    }
  }
  for (const task of SERIES_TASKS) onStage?.(task.state, seriesMs.get(task.state) ?? 0);
  for (const task of FINISH_TASKS) {
    try {
      const [, ms] = await timed(() => PIPELINE_STAGES[task.state](input, deps));
      onStage?.(task.state, ms);
    } catch (error) {
      return fail(task.state, error);
    }
  }
  return { ok: true, ...withSeries() };
}
