import { describe, expect, it } from 'vitest';
import {
  createDepartment,
  deleteDepartment,
  listDepartments,
  updateDepartment,
} from '#shared/domain/organisation/departments.ts';
import {
  archiveTeam,
  changeMemberPermissions,
  changeMemberRole,
  createTeam,
  getTeam,
  listTeamMembers,
  listTeams,
  removeMember,
  updateTeam,
} from '#shared/domain/organisation/teams.ts';
import { TeamInputSchema } from '#shared/schemas/api/organisation.ts';
import { as, organisationPorts } from './fixtures.ts';

const ADMIN = as('HOSPITAL_ADMIN');
const LEAD = as('TEAM_LEAD');

describe('departments', () => {
  it('lists with counts for every staff role; creates, renames; deletes only when empty', async () => {
    const deps = organisationPorts();
    expect((await listDepartments({}, as('GUEST'), deps)).items).toEqual([
      expect.objectContaining({ id: 'd1', teamCount: 2, memberCount: 3 }),
    ]);
    const created = await createDepartment({ name: 'Neurology', description: '' }, ADMIN, deps);
    expect(deps.org.hospitals.get('h1')!.departmentCount).toBe(2);
    expect((await updateDepartment(created.id, { description: 'Brain' }, ADMIN, deps)).description).toBe('Brain');
    await expect(deleteDepartment('d1', ADMIN, deps)).rejects.toMatchObject({ code: 'DEPARTMENT_NOT_EMPTY' });
    await deleteDepartment(created.id, ADMIN, deps);
    expect(deps.org.hospitals.get('h1')!.departmentCount).toBe(1);
    await expect(deleteDepartment(created.id, ADMIN, deps)).rejects.toMatchObject({ code: 'DEPARTMENT_NOT_FOUND' });
    expect(deps.audit.events.map((e) => e.action)).toEqual([
      'DEPARTMENT_CREATED',
      'DEPARTMENT_UPDATED',
      'DEPARTMENT_DELETED',
    ]);
  });
});

describe('the super admin across hospitals', () => {
  it("reads the departments and teams of the hospital it names, the system tenant's (none) otherwise", async () => {
    const deps = organisationPorts();
    const SUPER = as('SUPER_ADMIN');
    expect((await listDepartments({ hospitalId: 'h1' }, SUPER, deps)).items.map((d) => d.id)).toEqual(['d1']);
    expect((await listDepartments({}, SUPER, deps)).items).toEqual([]);
    const all = { includeArchived: false, limit: 50 };
    expect((await listTeams({ ...all, hospitalId: 'h1' }, SUPER, deps)).items.map((t) => t.id)).toEqual(['t1', 't2']);
    expect((await listTeams(all, SUPER, deps)).items).toEqual([]);
    await expect(listTeams({ ...all, hospitalId: 'nowhere' }, SUPER, deps)).rejects.toMatchObject({
      code: 'HOSPITAL_NOT_FOUND',
    });
  });

  it('answers 404 to anyone else naming another hospital, and honours their own', async () => {
    const deps = organisationPorts();
    await expect(listDepartments({ hospitalId: 'h2' }, ADMIN, deps)).rejects.toMatchObject({
      code: 'HOSPITAL_NOT_FOUND',
    });
    await expect(listTeams({ hospitalId: 'h2', includeArchived: false, limit: 50 }, LEAD, deps)).rejects.toMatchObject({
      code: 'HOSPITAL_NOT_FOUND',
    });
    expect((await listDepartments({ hospitalId: 'h1' }, ADMIN, deps)).items).toHaveLength(1);
  });
});

describe('teams', () => {
  it('lists all teams for the admin (archived hidden unless asked) and only their own for the others', async () => {
    const deps = organisationPorts();
    deps.org.teams.get('h1/t2')!.isActive = false;
    expect((await listTeams({ includeArchived: false, limit: 50 }, ADMIN, deps)).items.map((t) => t.id)).toEqual([
      't1',
    ]);
    expect((await listTeams({ includeArchived: true, limit: 50 }, ADMIN, deps)).items.map((t) => t.id)).toEqual([
      't1',
      't2',
    ]);
    for (const role of ['TEAM_LEAD', 'TEAM_MEMBER', 'GUEST'] as const)
      expect((await listTeams({ includeArchived: true, limit: 50 }, as(role), deps)).items.map((t) => t.id)).toEqual([
        't1',
      ]);
  });

  it('creates a team in a department of the hospital, counted on the hospital and the department', async () => {
    const deps = organisationPorts();
    const team = await createTeam(TeamInputSchema.parse({ name: 'Spine', departmentId: 'd1' }), ADMIN, deps);
    expect(team).toMatchObject({ departmentName: 'Radiology', isActive: true, memberCount: 0, maxMembers: 15 });
    expect(deps.org.hospitals.get('h1')!.teamCount).toBe(3);
    expect(deps.org.departments.get('h1/d1')!.teamCount).toBe(3);
    await expect(
      createTeam(TeamInputSchema.parse({ name: 'Spine', departmentId: 'elsewhere' }), ADMIN, deps),
    ).rejects.toMatchObject({ code: 'DEPARTMENT_NOT_FOUND' });
  });

  it('computes the overview stats from data', async () => {
    const deps = organisationPorts();
    Object.assign(deps.org.teams.get('h1/t1')!, { datasetCount: 7, storageUsedBytes: 1234, pendingInvitationCount: 2 });
    deps.org.users.get('h1/user-guest')!.status = 'DISABLED';
    expect((await getTeam('t1', as('TEAM_MEMBER'), deps)).stats).toEqual({
      activeMembers: 2,
      pendingInvites: 2,
      totalDatasets: 7,
      storageUsedBytes: 1234,
    });
  });

  it("lets a lead act only on their own team: another team's id answers 404, and only settings are theirs to edit", async () => {
    const deps = organisationPorts();
    await expect(getTeam('t2', LEAD, deps)).rejects.toMatchObject({ code: 'TEAM_NOT_FOUND' });
    await expect(updateTeam('t2', { settings: { allowGuestAccess: false } }, LEAD, deps)).rejects.toMatchObject({
      code: 'TEAM_NOT_FOUND',
    });
    await expect(listTeamMembers('t2', { limit: 50 }, LEAD, deps)).rejects.toMatchObject({ code: 'TEAM_NOT_FOUND' });
    await expect(removeMember('t2', 'user-team_member', LEAD, deps)).rejects.toMatchObject({ code: 'TEAM_NOT_FOUND' });
    await expect(updateTeam('t1', { name: 'Renamed' }, LEAD, deps)).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    const updated = await updateTeam('t1', { settings: { allowGuestAccess: false } }, LEAD, deps);
    expect(updated.settings.allowGuestAccess).toBe(false);
    expect(deps.audit.events.at(-1)).toMatchObject({
      action: 'TEAM_UPDATED',
      details: { before: { settings: { allowGuestAccess: true } }, after: { settings: { allowGuestAccess: false } } },
    });
    await expect(getTeam('t1', as('HOSPITAL_ADMIN', { hospitalId: 'h2' }), deps)).rejects.toMatchObject({
      code: 'TEAM_NOT_FOUND',
    });
  });

  it('lists members with their team roles; the lead changes a role (group too) and permissions, audited', async () => {
    const deps = organisationPorts();
    const members = await listTeamMembers('t1', { limit: 50 }, LEAD, deps);
    expect(Object.fromEntries(members.items.map((m) => [m.id, m.role]))).toEqual({
      'user-team_lead': 'LEAD',
      'user-team_member': 'MEMBER',
      'user-guest': 'GUEST',
    });
    const promoted = await changeMemberRole('t1', 'user-guest', 'MEMBER', LEAD, deps);
    expect(promoted.role).toBe('MEMBER');
    expect(deps.identityCalls).toEqual(['group user-guest GUEST->TEAM_MEMBER', 'signOut user-guest']);
    const narrowed = await changeMemberPermissions('t1', 'user-team_member', ['VIEW_DATASETS'], LEAD, deps);
    expect(narrowed.permissions).toEqual(['VIEW_DATASETS']);
    expect(deps.audit.events.at(-1)).toMatchObject({
      action: 'MEMBER_PERMISSIONS_CHANGED',
      details: {
        before: { permissions: ['VIEW_DATASETS', 'UPLOAD_DICOM', 'SHARE_DATA'] },
        after: { permissions: ['VIEW_DATASETS'] },
      },
    });
    await expect(changeMemberRole('t1', 'user-team_lead', 'MEMBER', LEAD, deps)).rejects.toMatchObject({
      code: 'CANNOT_CHANGE_OWN_ACCOUNT',
    });
  });

  it('removes a member (account kept, no team) and archives a team (members leave it)', async () => {
    const deps = organisationPorts();
    await removeMember('t1', 'user-guest', LEAD, deps);
    expect(deps.org.users.get('h1/user-guest')!.teamId).toBeNull();
    expect(deps.org.teams.get('h1/t1')!.memberCount).toBe(2);
    const archived = await archiveTeam('t1', ADMIN, deps);
    expect(archived).toMatchObject({ isActive: false, memberCount: 0 });
    expect([...deps.org.users.values()].filter((u) => u.teamId === 't1')).toEqual([]);
    expect(deps.org.hospitals.get('h1')!.teamCount).toBe(1);
  });
});
