import useSWR from 'swr';
import { DatasetDetailSchema } from '#shared/schemas/api/datasets.ts';
import { ACTIVE_DATASET_STATUSES } from '#shared/vocabulary/datasets.ts';
import { apiRequest } from '#web/lib/api-client.ts';

export const datasetKey = (id: string) => ['/api/datasets/{id}', id] as const;

export function getDataset(id: string) {
  return apiRequest(`/api/datasets/${encodeURIComponent(id)}`, DatasetDetailSchema);
}

/** One dataset with series and assets; polled while it moves through the pipeline. */
export function useDataset(id: string | undefined, options: { pollMs?: number } = {}) {
  return useSWR(id ? datasetKey(id) : null, () => getDataset(id!), {
    refreshInterval: (data) => (data && ACTIVE_DATASET_STATUSES.includes(data.status) ? (options.pollMs ?? 2000) : 0),
  });
}
