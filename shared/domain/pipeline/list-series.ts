import type { PolicyReader } from '#shared/domain/settings/policies.ts';
import { runSlotLimit, MAX_CONCURRENT_RUNS_PER_HOSPITAL } from './run-slots.ts';
import type { SeriesPlan } from '#shared/schemas/workflow.ts';
import { enterStage, type PipelineDeps, type StageInput } from './deps.ts';

/**
 * ANONYMIZING → CLASSIFYING, and the plan of the Map state: every series of the study (a series' branch decides what
 * applies to it) and how many branches run at once, the hospital's queue concurrency
 * (docs/pipeline.md#series-in-parallel). Where no policy is kept (`iws process`) the default policy's applies.
 */
export async function listDatasetSeries(
  input: StageInput,
  deps: PipelineDeps & { settings?: PolicyReader },
): Promise<SeriesPlan> {
  await enterStage(deps, input, 'ANONYMIZING', 'CLASSIFYING');
  const series = await deps.datasets.listSeries(input.hospitalId, input.datasetId);
  const maxConcurrency = deps.settings
    ? await runSlotLimit(input.hospitalId, { settings: deps.settings })
    : MAX_CONCURRENT_RUNS_PER_HOSPITAL;
  return {
    seriesIds: [...series].sort((a, b) => a.seriesNumber - b.seriesNumber).map((s) => s.id),
    maxConcurrency,
  };
}
