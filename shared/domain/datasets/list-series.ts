import type { Series } from '#shared/schemas/api/datasets.ts';
import type { Caller } from '#shared/domain/auth/caller.ts';
import { loadReadableDataset, type ShareGrants } from './load-dataset.ts';
import type { DatasetRepository } from './ports.ts';
import { toSeries } from './view.ts';

export async function listSeries(
  datasetId: string,
  caller: Caller,
  deps: { datasets: DatasetRepository; shares?: ShareGrants },
): Promise<{ items: Series[] }> {
  await loadReadableDataset(caller, datasetId, deps);
  const series = await deps.datasets.listSeries(caller.hospitalId, datasetId);
  return { items: series.sort((a, b) => a.seriesNumber - b.seriesNumber).map(toSeries) };
}
