import useSWR from 'swr';
import { z } from 'zod';
import { ProcessedAssetSchema } from '#shared/schemas/api/datasets.ts';
import { apiRequest } from '#web/lib/api-client.ts';

const AssetListResponseSchema = z.object({ items: z.array(ProcessedAssetSchema) });

const assetsKey = (id: string) => ['/api/datasets/{id}/assets', id] as const;

/** Processed assets with presigned GET URLs (valid for minutes: fetch them again rather than keeping them). */
function getAssets(id: string) {
  return apiRequest(`/api/datasets/${encodeURIComponent(id)}/assets`, AssetListResponseSchema).then((r) => r.items);
}

export function useAssets(id: string | undefined, enabled = true) {
  return useSWR(id && enabled ? assetsKey(id) : null, () => getAssets(id!), {
    revalidateOnFocus: false,
    refreshInterval: 10 * 60 * 1000,
  });
}
