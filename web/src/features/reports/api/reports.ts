import useSWR from 'swr';
import { ReportsSchema } from '#shared/schemas/api/oversight.ts';
import { apiRequest } from '#web/lib/api-client.ts';

export function useReports(months: number, hospitalId: string | undefined) {
  return useSWR(['/api/reports', months, hospitalId ?? ''], () =>
    apiRequest('/api/reports', ReportsSchema, { query: { months, hospitalId } }),
  );
}
