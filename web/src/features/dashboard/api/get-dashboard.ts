import useSWR from 'swr';
import { DashboardSchema } from '#shared/schemas/api/dashboard.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/** The caller's role dashboard, every figure computed by the server (docs/screens.md#dashboard). */
export function useDashboard() {
  return useSWR('/api/dashboard', () => apiRequest('/api/dashboard', DashboardSchema));
}
