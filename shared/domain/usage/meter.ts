import type { DatasetRepository } from '#shared/domain/datasets/ports.ts';
import type { OrganisationCounters } from '#shared/domain/organisation/ports.ts';

/**
 * Compute is metered task by task (docs/domain.md#usage-and-billing): each pipeline task's run time at its memory
 * size, on the day's meters of the hospital and of the dataset's team. A run itself adds 1 to `runs` when it ends.
 */
export async function meterTask(
  deps: {
    organisation?: Pick<OrganisationCounters, 'addUsage'>;
    datasets: Pick<DatasetRepository, 'get'>;
  },
  task: { hospitalId: string; datasetId: string; seconds: number; memoryMb: number; endedAt: string },
): Promise<void> {
  if (!deps.organisation || !(task.seconds > 0)) return;
  const deltas = { computeSeconds: task.seconds, gbSeconds: (task.seconds * task.memoryMb) / 1024 };
  const day = task.endedAt.slice(0, 10);
  // A dataset deleted meanwhile still cost its hospital the time.
  const dataset = await deps.datasets.get(task.hospitalId, task.datasetId);
  await deps.organisation.addUsage(task.hospitalId, 'hospital', day, deltas);
  if (dataset?.teamId) await deps.organisation.addUsage(task.hospitalId, dataset.teamId, day, deltas);
}

/** Records one finished run (complete or failed) on the day's meters of the hospital and the dataset's team. */
export async function meterRun(
  organisation: Pick<OrganisationCounters, 'addUsage'> | undefined,
  dataset: { hospitalId: string; teamId?: string | null },
  endedAt: string,
): Promise<void> {
  if (!organisation) return;
  const day = endedAt.slice(0, 10);
  await organisation.addUsage(dataset.hospitalId, 'hospital', day, { runs: 1 });
  if (dataset.teamId) await organisation.addUsage(dataset.hospitalId, dataset.teamId, day, { runs: 1 });
}
