import type { DatasetRecord, DatasetRepository } from './ports.ts';

/** Page size of a walk through a hospital's datasets (one index read each). */
const WALK_PAGE = 100;

/**
 * Every dataset of a hospital, newest first, read page by page from the hospital's by-creation-time index (a key range
 * when `createdFrom` is given): never a scan of the table. With `teamId`, only the team's, from the team's index.
 */
export async function walkDatasets(
  datasets: DatasetRepository,
  hospitalId: string,
  visit: (dataset: DatasetRecord) => void | Promise<void>,
  createdFrom?: string,
  teamId?: string,
): Promise<void> {
  let startKey: Record<string, string> | undefined;
  do {
    const page = await datasets.list({
      hospitalId,
      limit: WALK_PAGE,
      startKey,
      ...(createdFrom ? { createdFrom } : {}),
      ...(teamId !== undefined ? { teamId } : {}),
    });
    for (const dataset of page.items) await visit(dataset);
    startKey = page.lastKey;
  } while (startKey);
}

/** Runs `task` over `items` with at most `limit` at a time. */
export async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await task(items[next++]!);
  });
  await Promise.all(workers);
}
