import useSWR from 'swr';
import { DatasetPageSchema } from '#shared/schemas/api/datasets.ts';
import { ACTIVE_DATASET_STATUSES, type DatasetStatus } from '#shared/vocabulary/datasets.ts';
import { apiRequest } from '#web/lib/api-client.ts';

export type DatasetListParams = { status?: DatasetStatus; search?: string; limit: number; nextToken?: string };

const datasetsKey = (params: DatasetListParams) =>
  ['/api/datasets', params.status ?? '', params.search ?? '', params.limit, params.nextToken ?? ''] as const;

export function getDatasets(params: DatasetListParams) {
  return apiRequest('/api/datasets', DatasetPageSchema, {
    query: { status: params.status, search: params.search, limit: params.limit, nextToken: params.nextToken },
  });
}

/** Refresh interval while something moves through the pipeline, so cards advance without a reload. */
const ACTIVE_REFRESH_MS = 3000;

export function useDatasets(params: DatasetListParams | null) {
  return useSWR(params ? datasetsKey(params) : null, () => getDatasets(params!), {
    keepPreviousData: true,
    refreshInterval: (data) =>
      data?.items.some((d) => ACTIVE_DATASET_STATUSES.includes(d.status)) ? ACTIVE_REFRESH_MS : 0,
  });
}

/** Every dataset the user may see, page by page (the dashboard's pipeline counts need all of them). */
async function getAllDatasets(maxPages = 50) {
  const items = [];
  let nextToken: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const result = await getDatasets({ limit: 48, nextToken });
    items.push(...result.items);
    if (!result.nextToken) break;
    nextToken = result.nextToken;
  }
  return items;
}

export function useAllDatasets() {
  return useSWR(['/api/datasets', 'all'], () => getAllDatasets(), {
    refreshInterval: (data) =>
      data?.some((d) => ACTIVE_DATASET_STATUSES.includes(d.status)) ? ACTIVE_REFRESH_MS * 2 : 0,
  });
}
