import { describe, expect, it } from 'vitest';
import {
  addUserToHospital,
  changeUserRole,
  disableUser,
  enableUser,
  getUser,
  listUsers,
  moveUser,
  resetUserMfa,
} from '#shared/domain/organisation/users.ts';
import { listHospitals } from '#shared/domain/organisation/hospitals.ts';
import { as, organisationPorts } from './fixtures.ts';

const listHospitalsSummary = async (deps: ReturnType<typeof organisationPorts>) =>
  (await listHospitals({ limit: 24 }, as('SUPER_ADMIN'), deps)).summary;

const ADMIN = as('HOSPITAL_ADMIN');

describe('users (hospital admin within their hospital, super admin across hospitals)', () => {
  it('searches by a prefix of first name, last name or e-mail, case-insensitively, and filters', async () => {
    const deps = organisationPorts();
    deps.user('h1', 'TEAM_MEMBER', { id: 'u-jo', email: 'jo.smith@x.test', firstName: 'Jordan', lastName: 'Smith' });
    const find = async (q: Record<string, string>) =>
      (await listUsers({ limit: 25, ...q }, ADMIN, deps)).items.map((u) => u.id);
    expect(await find({ q: 'JOR' })).toEqual(['u-jo']);
    expect(await find({ q: 'smi' })).toEqual(['u-jo']);
    expect(await find({ q: 'jo.s' })).toEqual(['u-jo']);
    expect(await find({ q: 'jordan s' })).toEqual(['u-jo']);
    expect(await find({ role: 'GUEST' })).toEqual(['user-guest']);
    expect((await find({ teamId: 't1' })).sort()).toEqual(['u-jo', 'user-guest', 'user-team_lead', 'user-team_member']);
    expect(await find({ status: 'DISABLED' })).toEqual([]);
  });

  it('pages with sealed tokens that only the same query may replay', async () => {
    const deps = organisationPorts();
    const first = await listUsers({ limit: 2 }, ADMIN, deps);
    expect(first.items).toHaveLength(2);
    const second = await listUsers({ limit: 2, nextToken: first.nextToken! }, ADMIN, deps);
    expect(second.items[0]!.id).not.toBe(first.items[0]!.id);
    await expect(
      listUsers({ limit: 2, role: 'GUEST', nextToken: first.nextToken! }, ADMIN, deps),
    ).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });

  it('answers 404 to a hospital admin naming another hospital, and lets the super admin name any', async () => {
    const deps = organisationPorts();
    await expect(listUsers({ limit: 25, hospitalId: 'h2' }, ADMIN, deps)).rejects.toMatchObject({
      code: 'HOSPITAL_NOT_FOUND',
    });
    await expect(getUser('h2-admin', undefined, ADMIN, deps)).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
    expect((await listUsers({ limit: 25, hospitalId: 'h2' }, as('SUPER_ADMIN'), deps)).items.map((u) => u.id)).toEqual([
      'h2-admin',
    ]);
  });

  it('changes a role in the identity provider (old group out, new in, signed out) and in the record, audited', async () => {
    const deps = organisationPorts();
    const changed = await changeUserRole('user-team_member', undefined, 'TEAM_LEAD', ADMIN, deps);
    expect(changed).toMatchObject({ role: 'TEAM_LEAD', permissions: expect.arrayContaining(['MANAGE_MEMBERS']) });
    expect(deps.identityCalls).toEqual(['group user-team_member TEAM_MEMBER->TEAM_LEAD', 'signOut user-team_member']);
    expect(deps.audit.events.at(-1)).toMatchObject({
      action: 'USER_ROLE_CHANGED',
      details: { before: { role: 'TEAM_MEMBER' }, after: { role: 'TEAM_LEAD' } },
    });
  });

  it('protects the last active hospital admin from demotion and disabling', async () => {
    const deps = organisationPorts();
    const superAdmin = as('SUPER_ADMIN');
    await expect(changeUserRole('h2-admin', 'h2', 'TEAM_MEMBER', superAdmin, deps)).rejects.toMatchObject({
      code: 'LAST_HOSPITAL_ADMIN',
    });
    await expect(disableUser('h2-admin', 'h2', superAdmin, deps)).rejects.toMatchObject({
      code: 'LAST_HOSPITAL_ADMIN',
    });
    deps.user('h2', 'HOSPITAL_ADMIN', { id: 'h2-admin-2', email: 'a2@h2.test' });
    expect((await disableUser('h2-admin', 'h2', superAdmin, deps)).status).toBe('DISABLED');
    expect(deps.identityCalls).toEqual(['disable h2-admin', 'signOut h2-admin']);
  });

  it("answers CONFLICT while another admin change holds the hospital's lease, and frees it afterwards", async () => {
    const deps = organisationPorts();
    deps.user('h1', 'HOSPITAL_ADMIN', { id: 'second-admin', email: 's@x.test' });
    await deps.organisation.lockAdminChanges('h1', '2026-02-01T09:59:00.000Z', '2026-02-01T10:00:30.000Z');
    await expect(disableUser('second-admin', undefined, ADMIN, deps)).rejects.toMatchObject({ code: 'CONFLICT' });
    await deps.organisation.unlockAdminChanges('h1');
    expect((await disableUser('second-admin', undefined, ADMIN, deps)).status).toBe('DISABLED');
    expect(await deps.organisation.lockAdminChanges('h1', '2026-02-01T10:00:00.000Z', '2026-02-01T10:01:00.000Z')).toBe(
      true,
    );
  });

  it('lets no one disable or demote themselves', async () => {
    const deps = organisationPorts();
    deps.user('h1', 'HOSPITAL_ADMIN', { id: 'second-admin', email: 's@x.test' });
    await expect(disableUser('user-hospital_admin', undefined, ADMIN, deps)).rejects.toMatchObject({
      code: 'CANNOT_CHANGE_OWN_ACCOUNT',
    });
    await expect(changeUserRole('user-hospital_admin', undefined, 'GUEST', ADMIN, deps)).rejects.toMatchObject({
      code: 'CANNOT_CHANGE_OWN_ACCOUNT',
    });
  });

  it('disables and enables with the identity provider and the billed user count', async () => {
    const deps = organisationPorts();
    await disableUser('user-guest', undefined, ADMIN, deps);
    expect(deps.org.hospitals.get('h1')!.userCount).toBe(4);
    await enableUser('user-guest', undefined, ADMIN, deps);
    expect(deps.org.hospitals.get('h1')!.userCount).toBe(5);
    expect(deps.identityCalls).toEqual(['disable user-guest', 'signOut user-guest', 'enable user-guest']);
  });

  it("moves the hospital's users by status and with two-factor as a user is disabled, enabled and reset (docs/domain.md#counters)", async () => {
    // Arrange: the guest enrolled in two-factor; the counters as they stand (the fixture's items carry none: 0).
    const deps = organisationPorts();
    const counter = (name: string) => (deps.org.hospitals.get('h1') as Record<string, unknown>)[name] ?? 0;
    await deps.organisation.updateUser('h1', 'user-guest', { twoFactorSince: '2026-01-01T00:00:00.000Z' });

    // Act and assert: disabled, it leaves ACTIVE (and the users with two-factor, which count ACTIVE users only).
    await disableUser('user-guest', undefined, ADMIN, deps);
    expect([counter('users_ACTIVE'), counter('users_DISABLED'), counter('twoFactorUserCount')]).toEqual([-1, 1, -1]);
    // A second disable changes nothing.
    await disableUser('user-guest', undefined, ADMIN, deps);
    expect([counter('users_ACTIVE'), counter('users_DISABLED'), counter('twoFactorUserCount')]).toEqual([-1, 1, -1]);
    // Enabled, it is ACTIVE again with its two-factor mark.
    await enableUser('user-guest', undefined, ADMIN, deps);
    expect([counter('users_ACTIVE'), counter('users_DISABLED'), counter('twoFactorUserCount')]).toEqual([0, 0, 0]);
    // An administrator's two-factor reset removes the mark: one user fewer with two-factor, none moves status.
    await resetUserMfa('user-guest', undefined, ADMIN, deps);
    expect([counter('users_ACTIVE'), counter('twoFactorUserCount')]).toEqual([0, -1]);
    // An INVITED user disabled (a SCIM deprovisioning before the first sign-in) moves from INVITED to DISABLED.
    deps.org.users.get('h1/user-team_member')!.status = 'INVITED';
    await disableUser('user-team_member', undefined, ADMIN, deps);
    expect([counter('users_INVITED'), counter('users_DISABLED')]).toEqual([-1, 1]);
  });

  it('moves a user into an active team of the same hospital with room, counting members', async () => {
    const deps = organisationPorts();
    const moved = await moveUser('user-team_member', undefined, 't2', ADMIN, deps);
    expect(moved).toMatchObject({ teamId: 't2', teamName: 'Stroke', departmentId: 'd1' });
    expect(deps.org.teams.get('h1/t1')!.memberCount).toBe(2);
    expect(deps.org.teams.get('h1/t2')!.memberCount).toBe(1);
    deps.org.teams.get('h1/t1')!.maxMembers = 2;
    await expect(moveUser('user-team_member', undefined, 't1', ADMIN, deps)).rejects.toMatchObject({
      code: 'TEAM_FULL',
    });
    deps.org.teams.get('h1/t1')!.isActive = false;
    await expect(moveUser('user-team_member', undefined, 't1', ADMIN, deps)).rejects.toMatchObject({
      code: 'TEAM_ARCHIVED',
    });
    await expect(moveUser('user-team_member', undefined, 'other-hospital-team', ADMIN, deps)).rejects.toMatchObject({
      code: 'TEAM_NOT_FOUND',
    });
    expect(deps.audit.events.at(-1)).toMatchObject({
      action: 'USER_TEAM_CHANGED',
      details: { before: { teamId: 't1' }, after: { teamId: 't2' } },
    });
  });

  it("resets a user's two-factor: software token off, signed out everywhere, audited; never their own or a super admin's", async () => {
    const deps = organisationPorts();
    await deps.organisation.updateUser('h1', 'user-team_lead', { twoFactorSince: '2026-01-01T00:00:00.000Z' });
    const reset = await resetUserMfa('user-team_lead', undefined, ADMIN, deps);
    expect(reset).toMatchObject({ id: 'user-team_lead', status: 'ACTIVE' });
    expect(deps.identityCalls).toEqual(['resetMfa user-team_lead', 'signOut user-team_lead']);
    // No longer counted among the users with two-factor (docs/domain.md#oversight-figures).
    expect((await deps.directory.getUser('h1', 'user-team_lead'))?.twoFactorSince).toBeUndefined();
    expect(deps.audit.events.at(-1)).toMatchObject({
      hospitalId: 'h1',
      action: 'USER_MFA_RESET',
      details: { userId: 'user-team_lead' },
    });
    await resetUserMfa('user-guest', 'h1', as('SUPER_ADMIN'), deps);
    expect(deps.identityCalls.at(-2)).toBe('resetMfa user-guest');
    await expect(resetUserMfa('user-hospital_admin', undefined, ADMIN, deps)).rejects.toMatchObject({
      code: 'CANNOT_CHANGE_OWN_ACCOUNT',
    });
    await expect(resetUserMfa('user-team_lead', 'h2', ADMIN, deps)).rejects.toMatchObject({
      code: 'HOSPITAL_NOT_FOUND',
    });
    await expect(
      resetUserMfa('user-team_lead', undefined, as('HOSPITAL_ADMIN', { hospitalId: 'h2' }), deps),
    ).rejects.toMatchObject({
      code: 'USER_NOT_FOUND',
    });
    deps.org.users.get('h1/user-team_member')!.status = 'INVITED';
    const calls = deps.identityCalls.length;
    await resetUserMfa('user-team_member', undefined, ADMIN, deps);
    expect(deps.identityCalls).toHaveLength(calls);
  });

  it("lets the super admin move a user of the hospital it names (the system tenant's users otherwise)", async () => {
    const deps = organisationPorts();
    const superAdmin = as('SUPER_ADMIN');
    await expect(moveUser('user-team_member', undefined, 't2', superAdmin, deps)).rejects.toMatchObject({
      code: 'USER_NOT_FOUND',
    });
    const moved = await moveUser('user-team_member', 'h1', 't2', superAdmin, deps);
    expect(moved).toMatchObject({ teamId: 't2', teamName: 'Stroke' });
    expect(deps.audit.events.at(-1)).toMatchObject({ hospitalId: 'h1', action: 'USER_TEAM_CHANGED' });
  });

  it('adds a new user with every counter it moves: billed users, the team seat, the department', async () => {
    const deps = organisationPorts();
    const user = {
      id: 'new-1',
      email: 'new@x.test',
      firstName: 'New',
      lastName: 'Person',
      role: 'TEAM_MEMBER' as const,
      status: 'INVITED' as const,
      hospitalId: 'h1',
      teamId: 't2',
      departmentId: 'd1',
      permissions: ['VIEW_DATASETS' as const],
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    await addUserToHospital(user, deps);
    expect(deps.org.hospitals.get('h1')!.userCount).toBe(6);
    // One more INVITED user of the hospital (SCIM provisioning adds its users this way).
    expect(deps.org.hospitals.get('h1')!.users_INVITED).toBe(1);
    expect(deps.org.teams.get('h1/t2')!.memberCount).toBe(1);
    expect(deps.org.departments.get('h1/d1')!.memberCount).toBe(4);
    expect((await listHospitalsSummary(deps)).totalUsers).toBe(7);
    await expect(addUserToHospital(user, deps)).rejects.toMatchObject({ code: 'CONFLICT' });
    deps.org.teams.get('h1/t2')!.maxMembers = 1;
    await expect(addUserToHospital({ ...user, id: 'new-2', email: 'n2@x.test' }, deps)).rejects.toMatchObject({
      code: 'TEAM_FULL',
    });
  });
});
