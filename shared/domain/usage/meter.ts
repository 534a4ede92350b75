import type { DatasetRecord } from '#shared/domain/datasets/ports.ts';
import type { OrganisationCounters } from '#shared/domain/organisation/ports.ts';
import { PIPELINE_TASKS } from '#shared/pipeline/definition.ts';

/**
 * Memory a pipeline run is metered at: the largest task's (docs/domain.md#usage-and-billing). The run's time from
 * the pipeline taking the dataset to its end is counted at that memory, an upper bound of what its tasks used.
 */
export const METERED_MEMORY_GB = Math.max(...PIPELINE_TASKS.map((t) => t.memoryMb)) / 1024;

/**
 * Records one finished run (complete or failed) on the day's compute meters of the hospital and the dataset's
 * team: runs, seconds and GB-seconds. A run without a start time (failed before the pipeline took it) counts as a run
 * of 0 seconds.
 */
export async function meterRun(
  organisation: OrganisationCounters | undefined,
  dataset: Pick<DatasetRecord, 'hospitalId' | 'teamId' | 'processingStartedAt'>,
  endedAt: string,
): Promise<void> {
  if (!organisation) return;
  const started = dataset.processingStartedAt ? Date.parse(dataset.processingStartedAt) : NaN;
  const seconds = Number.isFinite(started) ? Math.max(0, (Date.parse(endedAt) - started) / 1000) : 0;
  const deltas = { runs: 1, computeSeconds: seconds, gbSeconds: seconds * METERED_MEMORY_GB };
  const day = endedAt.slice(0, 10);
  await organisation.addUsage(dataset.hospitalId, 'hospital', day, deltas);
  if (dataset.teamId) await organisation.addUsage(dataset.hospitalId, dataset.teamId, day, deltas);
}
