import type { Role } from '#shared/vocabulary/roles.ts';

export type UserFilters = { search: string; role: Role | ''; departmentId: string };
export const NO_USER_FILTERS: UserFilters = { search: '', role: '', departmentId: '' };
/** Rows per page of the Users page. */
export const USER_PAGE_SIZE = 25;

export type UserListQuery = {
  q?: string;
  role?: Role;
  departmentId?: string;
  hospitalId?: string;
  limit: number;
  nextToken?: string;
};

/**
 * The search box, Role and Department filters become GET /api/users query parameters (the server searches, never
 * the page); `hospitalId` is the super admin's hospital selector, empty ones are left out.
 */
export function userListQuery(filters: UserFilters, hospitalId?: string, nextToken?: string): UserListQuery {
  const q = filters.search.trim();
  return {
    ...(q ? { q } : {}),
    ...(filters.role ? { role: filters.role } : {}),
    ...(filters.departmentId ? { departmentId: filters.departmentId } : {}),
    ...(hospitalId ? { hospitalId } : {}),
    limit: USER_PAGE_SIZE,
    ...(nextToken ? { nextToken } : {}),
  };
}
