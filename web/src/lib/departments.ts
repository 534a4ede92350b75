import useSWR from 'swr';
import { z } from 'zod';
import { DepartmentSchema } from '#shared/schemas/api/organisation.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/** The hospital's departments (GET /api/departments): used by teams, users and the upload wizard alike. */
export const DEPARTMENTS_KEY = '/api/departments';
const DepartmentListSchema = z.object({ items: z.array(DepartmentSchema) });

export function useDepartments(enabled = true) {
  return useSWR(enabled ? DEPARTMENTS_KEY : null, () => apiRequest(DEPARTMENTS_KEY, DepartmentListSchema));
}
