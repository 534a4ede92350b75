import useSWR from 'swr';
import { RecycleBinPageSchema } from '#shared/schemas/api/datasets.ts';
import { apiRequest } from '#web/lib/api-client.ts';

export const RECYCLE_BIN_KEY = '/api/datasets/recycle-bin';

/** The hospital's recycle bin, the soonest purged first (hospital admins: docs/domain.md#recycle-bin). */
export function useRecycleBin() {
  return useSWR([RECYCLE_BIN_KEY], () => apiRequest(RECYCLE_BIN_KEY, RecycleBinPageSchema, { query: { limit: 100 } }));
}
