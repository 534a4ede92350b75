import { assertVisible, requirePermission, type Caller } from '#shared/domain/access/caller.ts';
import type { DatasetRecord, DatasetRepository } from './ports.ts';

/** Loads a dataset the caller may see, or throws DATASET_NOT_FOUND (also for other tenants and other teams). */
export async function loadVisibleDataset(
  caller: Caller,
  datasetId: string,
  deps: { datasets: DatasetRepository },
): Promise<DatasetRecord> {
  requirePermission(caller, 'VIEW_DATASETS');
  return assertVisible(caller, await deps.datasets.get(caller.hospitalId, datasetId));
}
