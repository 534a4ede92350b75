import useSWR, { mutate } from 'swr';
import { z } from 'zod';
import type { Permission } from '#shared/vocabulary/roles.ts';
import {
  DepartmentSchema,
  TeamDetailSchema,
  TeamMemberPageSchema,
  TeamMemberSchema,
  TeamPageSchema,
  TeamSchema,
  type DepartmentInput,
  type TeamInput,
  type TeamRole,
  type UpdateTeamRequest,
} from '#shared/schemas/api/organisation.ts';
import { apiAllPages, apiRequest } from '#web/lib/api-client.ts';
import { DEPARTMENTS_KEY } from '#web/lib/departments.ts';

const TEAMS = '/api/teams';
const teamPath = (id: string) => `${TEAMS}/${encodeURIComponent(id)}`;
const memberPath = (teamId: string, memberId: string) => `${teamPath(teamId)}/members/${encodeURIComponent(memberId)}`;

export function useTeams(includeArchived: boolean) {
  return useSWR([TEAMS, 'list', includeArchived], () =>
    apiAllPages(TEAMS, TeamPageSchema, { includeArchived: String(includeArchived) }),
  );
}

export function useTeam(teamId: string) {
  return useSWR([TEAMS, teamId], () => apiRequest(teamPath(teamId), TeamDetailSchema));
}

export function useTeamMembers(teamId: string) {
  return useSWR([TEAMS, teamId, 'members'], () => apiAllPages(`${teamPath(teamId)}/members`, TeamMemberPageSchema));
}

/** Teams, members and department counts move together, so every write refreshes all three. */
const revalidate = () =>
  mutate((key) => (Array.isArray(key) && (key[0] === TEAMS || key[0] === '/api/users')) || key === DEPARTMENTS_KEY);

async function write<T>(request: Promise<T>): Promise<T> {
  const result = await request;
  await revalidate();
  return result;
}

export const createTeam = (body: TeamInput) => write(apiRequest(TEAMS, TeamSchema, { method: 'POST', body }));
export const updateTeam = (id: string, body: UpdateTeamRequest) =>
  write(apiRequest(teamPath(id), TeamSchema, { method: 'PATCH', body }));
export const archiveTeam = (id: string) =>
  write(apiRequest(`${teamPath(id)}/archive`, TeamSchema, { method: 'POST', body: {} }));
export const restoreTeam = (id: string) =>
  write(apiRequest(`${teamPath(id)}/restore`, TeamSchema, { method: 'POST', body: {} }));

export const changeMemberRole = (teamId: string, memberId: string, role: TeamRole) =>
  write(apiRequest(`${memberPath(teamId, memberId)}/role`, TeamMemberSchema, { method: 'PATCH', body: { role } }));
export const changeMemberPermissions = (teamId: string, memberId: string, permissions: Permission[]) =>
  write(
    apiRequest(`${memberPath(teamId, memberId)}/permissions`, TeamMemberSchema, {
      method: 'PATCH',
      body: { permissions },
    }),
  );
export const removeMember = (teamId: string, memberId: string) =>
  write(apiRequest(memberPath(teamId, memberId), z.unknown(), { method: 'DELETE' }));

export const createDepartment = (body: DepartmentInput) =>
  write(apiRequest(DEPARTMENTS_KEY, DepartmentSchema, { method: 'POST', body }));
export const updateDepartment = (id: string, body: Partial<DepartmentInput>) =>
  write(apiRequest(`${DEPARTMENTS_KEY}/${encodeURIComponent(id)}`, DepartmentSchema, { method: 'PATCH', body }));
export const deleteDepartment = (id: string) =>
  write(apiRequest(`${DEPARTMENTS_KEY}/${encodeURIComponent(id)}`, z.unknown(), { method: 'DELETE' }));
