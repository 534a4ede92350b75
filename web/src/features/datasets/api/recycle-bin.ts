import useSWR from 'swr';
import { RecycleBinPageSchema } from '#shared/schemas/api/datasets.ts';
import { apiRequest } from '#web/lib/api-client.ts';

export const RECYCLE_BIN_KEY = '/api/datasets/recycle-bin';

/** Datasets of one page of the bin: the most the route gives at once. */
export const RECYCLE_BIN_PAGE_SIZE = 100;

/**
 * One page of the hospital's recycle bin, the soonest purged first (hospital admins: docs/domain.md#recycle-bin):
 * the first, or the one the server's `nextToken` of the page before points at.
 */
export function useRecycleBin(nextToken?: string) {
  return useSWR(
    [RECYCLE_BIN_KEY, nextToken ?? null],
    () =>
      apiRequest(RECYCLE_BIN_KEY, RecycleBinPageSchema, {
        query: { limit: RECYCLE_BIN_PAGE_SIZE, ...(nextToken ? { nextToken } : {}) },
      }),
    { keepPreviousData: true },
  );
}
