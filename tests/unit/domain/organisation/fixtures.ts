import { DEFAULT_PERMISSIONS, type Role } from '#shared/vocabulary/roles.ts';
import type { Caller } from '#shared/domain/auth/caller.ts';
import type { UserRecord } from '#shared/domain/auth/ports.ts';
import { DEFAULT_TEAM_SETTINGS } from '#shared/schemas/api/organisation.ts';
import { caller, ports } from '#tests/unit/domain/fakes.ts';

const NOW = '2026-01-01T00:00:00.000Z';

/**
 * Two hospitals in the fakes: h1 (PRO) with a department, two teams and one user of each role, and h2 (BASIC) with
 * its own admin; the summary counters match them.
 */
export function organisationPorts() {
  const p = ports();
  const { hospitals, departments, teams, users, summary } = p.org;
  const hospital = (id: string, name: string, plan: string, userCount: number) =>
    hospitals.set(id, {
      id,
      slug: id,
      name,
      city: 'Chicago',
      subscriptionPlan: plan,
      status: 'ACTIVE',
      userCount,
      teamCount: 2,
      departmentCount: 1,
      datasetCount: 0,
      createdAt: NOW,
      updatedAt: NOW,
    });
  hospital('h1', 'Northside General', 'PRO', 5);
  hospital('h2', 'Lakeview Medical', 'BASIC', 1);
  hospitals.set('system', { id: 'system', slug: 'system', name: 'Imaging Workspace', createdAt: NOW, updatedAt: NOW });
  Object.assign(summary, { hospitals: 2, users: 6, h_PRO: 1, u_PRO: 5, h_BASIC: 1, u_BASIC: 1 });
  departments.set('h1/d1', {
    id: 'd1',
    hospitalId: 'h1',
    name: 'Radiology',
    description: '',
    teamCount: 2,
    memberCount: 3,
    createdAt: NOW,
  });
  for (const [id, name] of [
    ['t1', 'Neuroradiology'],
    ['t2', 'Stroke'],
  ] as const)
    teams.set(`h1/${id}`, {
      id,
      hospitalId: 'h1',
      name,
      departmentId: 'd1',
      description: '',
      maxMembers: 15,
      settings: DEFAULT_TEAM_SETTINGS,
      isActive: true,
      memberCount: id === 't1' ? 3 : 0,
      createdAt: NOW,
    });
  const user = (hospitalId: string, role: Role, overrides: Partial<UserRecord> = {}) => {
    const c = caller(role, { hospitalId });
    const record: UserRecord = {
      id: c.userId,
      email: c.email,
      firstName: c.firstName,
      lastName: c.lastName,
      role,
      status: 'ACTIVE',
      hospitalId,
      teamId: c.teamId,
      departmentId: c.teamId ? 'd1' : null,
      permissions: [...DEFAULT_PERMISSIONS[role]],
      createdAt: NOW,
      ...overrides,
    };
    users.set(`${hospitalId}/${record.id}`, record);
    return record;
  };
  for (const role of ['HOSPITAL_ADMIN', 'TEAM_LEAD', 'TEAM_MEMBER', 'GUEST'] as const) user('h1', role);
  user('h2', 'HOSPITAL_ADMIN', { id: 'h2-admin', email: 'admin@h2.test' });
  user('system', 'SUPER_ADMIN');
  return { ...p, user };
}

export const as = (role: Role, overrides: Partial<Caller> = {}): Caller =>
  role === 'SUPER_ADMIN' ? caller(role, { hospitalId: 'system', ...overrides }) : caller(role, overrides);
