import useSWR from 'swr';
import { z } from 'zod';
import { apiRequest } from '#web/lib/api-client.ts';

const HistoryEventSchema = z.object({
  id: z.string(),
  datasetId: z.string().optional(),
  at: z.string(),
  action: z.string(),
  actorUserId: z.string(),
  actorName: z.string(),
  details: z.record(z.string(), z.unknown()),
});
const HistoryResponseSchema = z.object({ items: z.array(HistoryEventSchema) });
export type HistoryEvent = z.infer<typeof HistoryEventSchema>;

const historyKey = (id: string) => ['/api/datasets/{id}/history', id] as const;

function getHistory(id: string) {
  return apiRequest(`/api/datasets/${encodeURIComponent(id)}/history`, HistoryResponseSchema).then((r) => r.items);
}

export function useHistory(id: string | undefined, refreshKey?: string) {
  return useSWR(id ? [...historyKey(id), refreshKey ?? ''] : null, () => getHistory(id!));
}
