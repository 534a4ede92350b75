import useSWR from 'swr';
import { HospitalAdminOverviewSchema } from '#shared/schemas/api/organisation.ts';
import { apiRequest } from '#web/lib/api-client.ts';

const KEY = '/api/hospital-admin/overview';

/** Figures and sidebar badges of the hospital-admin area, computed by the server (never fixed numbers). */
export function useHospitalAdminOverview() {
  return useSWR(KEY, () => apiRequest(KEY, HospitalAdminOverviewSchema), { refreshInterval: 60_000 });
}
