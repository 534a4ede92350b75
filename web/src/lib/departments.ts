import useSWR from 'swr';
import { z } from 'zod';
import { DepartmentSchema } from '#shared/schemas/api/organisation.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/** The hospital's departments (GET /api/departments): used by teams, users and the upload wizard alike. */
export const DEPARTMENTS_KEY = '/api/departments';
const DepartmentListSchema = z.object({ items: z.array(DepartmentSchema) });

/**
 * `hospitalId` is the super admin's choice of hospital (docs/roles-and-permissions.md); everyone else reads their own
 * hospital's under the plain key, which the department screens revalidate.
 */
export function useDepartments(enabled = true, hospitalId?: string) {
  const key = hospitalId ? [DEPARTMENTS_KEY, hospitalId] : DEPARTMENTS_KEY;
  return useSWR(enabled ? key : null, () =>
    apiRequest(DEPARTMENTS_KEY, DepartmentListSchema, hospitalId ? { query: { hospitalId } } : {}),
  );
}
