import type { HospitalStatus, SubscriptionPlan } from '#shared/schemas/api/organisation.ts';

export type HospitalFilters = { search: string; plan: SubscriptionPlan | ''; status: HospitalStatus | '' };
export const NO_HOSPITAL_FILTERS: HospitalFilters = { search: '', plan: '', status: '' };
/** Cards per page of Hospital Management. */
export const HOSPITAL_PAGE_SIZE = 12;

export type HospitalListQuery = {
  q?: string;
  plan?: SubscriptionPlan;
  status?: HospitalStatus;
  limit: number;
  nextToken?: string;
};

/** The screen's search box and Filters become GET /api/hospitals query parameters; empty ones are left out. */
export function hospitalListQuery(filters: HospitalFilters, nextToken?: string): HospitalListQuery {
  const q = filters.search.trim();
  return {
    ...(q ? { q } : {}),
    ...(filters.plan ? { plan: filters.plan } : {}),
    ...(filters.status ? { status: filters.status } : {}),
    limit: HOSPITAL_PAGE_SIZE,
    ...(nextToken ? { nextToken } : {}),
  };
}
