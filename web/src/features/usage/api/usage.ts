import useSWR from 'swr';
import { UsageSchema } from '#shared/schemas/api/usage.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/** Usage and billing of the caller's hospital (a super admin: every hospital, or one). */
export function useUsage(hospitalId?: string) {
  const path = hospitalId ? `/api/usage?hospitalId=${encodeURIComponent(hospitalId)}` : '/api/usage';
  return useSWR(path, () => apiRequest(path, UsageSchema));
}
