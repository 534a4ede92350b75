import useSWR, { mutate } from 'swr';
import { HospitalPageSchema, UserPageSchema, UserSchema, type User } from '#shared/schemas/api/organisation.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import type { UserListQuery } from '#web/features/users/utils/user-query.ts';

const KEY = '/api/users';

/** `null` waits (the super admin has not picked a hospital yet). */
export function useUsers(query: UserListQuery | null) {
  return useSWR(query ? [KEY, query] : null, () => apiRequest(KEY, UserPageSchema, { query: query! }), {
    keepPreviousData: true,
  });
}

/** The hospital the super admin's Users page opens on: the first by the API's order (one item read). */
export function useFirstHospital(enabled: boolean) {
  return useSWR(enabled ? ['/api/hospitals', 'first'] : null, () =>
    apiRequest('/api/hospitals', HospitalPageSchema, { query: { limit: 1 } }),
  );
}

const userPath = (user: Pick<User, 'id'>, action: string) => `${KEY}/${encodeURIComponent(user.id)}/${action}`;
/** The super admin names the user's hospital; a hospital admin's own is implied (the server ignores nothing else). */
const scope = (user: Pick<User, 'hospitalId'>, asSuperAdmin: boolean) =>
  asSuperAdmin ? { hospitalId: user.hospitalId } : {};
const revalidate = () => mutate((key) => Array.isArray(key) && (key[0] === KEY || key[0] === '/api/teams'));

export async function changeUserRole(user: User, role: string, asSuperAdmin: boolean) {
  const updated = await apiRequest(userPath(user, 'role'), UserSchema, {
    method: 'PATCH',
    body: { role },
    query: scope(user, asSuperAdmin),
  });
  await revalidate();
  return updated;
}

export async function moveUserToTeam(user: User, teamId: string | null, asSuperAdmin: boolean) {
  const updated = await apiRequest(userPath(user, 'team'), UserSchema, {
    method: 'PATCH',
    body: { teamId },
    query: scope(user, asSuperAdmin),
  });
  await revalidate();
  return updated;
}

export async function setUserEnabled(user: User, enabled: boolean, asSuperAdmin: boolean) {
  const updated = await apiRequest(userPath(user, enabled ? 'enable' : 'disable'), UserSchema, {
    method: 'POST',
    body: {},
    query: scope(user, asSuperAdmin),
  });
  await revalidate();
  return updated;
}

/** An administrator's two-factor reset: the user's authenticator app off and every session ended. */
export async function resetUserMfa(user: User, asSuperAdmin: boolean) {
  const updated = await apiRequest(userPath(user, 'reset-mfa'), UserSchema, {
    method: 'POST',
    body: {},
    query: scope(user, asSuperAdmin),
  });
  await revalidate();
  return updated;
}
