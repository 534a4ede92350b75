import { describe, expect, it } from 'vitest';
import { newDatasetBody } from '#tests/helpers/datasets.ts';
import { newHospitalBody } from '#tests/helpers/fixtures.ts';
import { useHarness } from '#tests/helpers/harness.ts';
import { seedDemoTenants } from '#infra/local/seed/seed.ts';
import { subOf } from './datasets-harness.ts';

/**
 * The organisation over the real DynamoDB adapters (dynalite): counters kept with ADD, index attributes moved with
 * the fields they follow, summary cards from the summary item, the seed's counters right from the start.
 */
const SUPER = 'superadmin@demo.local';
const ADMIN = 'admin@northside.demo.local';
const LEAD = 'lead@northside.demo.local';
const MEMBER = 'member@northside.demo.local';

const h = useHarness();

const ok = async (
  method: string,
  path: string,
  as: string,
  options: { body?: unknown; query?: Record<string, string> } = {},
) => {
  const response = await h.call(method, path, { as, ...options });
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
  return response.body;
};

describe('organisation over the DynamoDB adapters', () => {
  it("seeds each hospital's first team with its demo team lead, the same however often the seed runs", async () => {
    const leads = async () =>
      (await ok('GET', '/api/teams', ADMIN)).items.map(
        (t: { id: string; leadUserId: string | null; leadName: string | null }) => [t.id, t.leadUserId, t.leadName],
      );
    const first = await leads();
    expect(first).toContainEqual(['team-northside-neuroradiology', subOf(LEAD), 'Jordan Patel']);
    expect(first).toContainEqual(['team-northside-stroke', null, null]);
    await seedDemoTenants({ ensureIdentity: async (u) => subOf(u.email), password: 'unused', table: h.table });
    expect(await leads()).toEqual(first);
  });

  it('starts with the counters the seed computed, and moves the summary cards with a new hospital', async () => {
    const before = await ok('GET', '/api/hospitals', SUPER);
    expect(before.summary).toEqual({
      totalHospitals: 2,
      activeSubscriptions: 2,
      totalUsers: 8,
      monthlyRevenue: 4 * 25 + 4 * 50,
    });
    expect(before.items.map((x: { slug: string }) => x.slug)).toEqual(['lakeview', 'northside']);

    const created = await ok('POST', '/api/hospitals', SUPER, {
      body: newHospitalBody(),
    });
    expect(created).toMatchObject({ slug: 'riverside-clinic', userCount: 1, monthlyRevenue: 15 });
    const after = await ok('GET', '/api/hospitals', SUPER);
    expect(after.summary).toEqual({ totalHospitals: 3, activeSubscriptions: 3, totalUsers: 9, monthlyRevenue: 315 });
    expect(
      (await ok('GET', '/api/hospitals', SUPER, { query: { q: 'spring' } })).items.map((x: { id: string }) => x.id),
    ).toEqual([created.id]);
    expect((await ok('GET', '/api/hospitals', SUPER, { query: { plan: 'ENTERPRISE' } })).items).toHaveLength(1);
    const invited = await ok('GET', '/api/users', SUPER, { query: { hospitalId: created.id } });
    expect(invited.items).toEqual([expect.objectContaining({ role: 'HOSPITAL_ADMIN', status: 'INVITED' })]);
  });

  it('builds a department and a team, moves a member into it through the indexes, and counts it all', async () => {
    const overview = await ok('GET', '/api/hospital-admin/overview', ADMIN);
    expect(overview).toMatchObject({ teamsCount: 2, departmentsCount: 2, membersCount: 4, pendingInvitations: 0 });

    const department = await ok('POST', '/api/departments', ADMIN, { body: { name: 'Cardiology' } });
    const team = await ok('POST', '/api/teams', ADMIN, { body: { name: 'Cardiac MRI', departmentId: department.id } });
    const member = (await ok('GET', '/api/me', MEMBER)).user;
    const moved = await ok('PATCH', `/api/users/${member.id}/team`, ADMIN, { body: { teamId: team.id } });
    expect(moved).toMatchObject({
      teamId: team.id,
      teamName: 'Cardiac MRI',
      departmentId: department.id,
      department: 'Cardiology',
    });

    const members = await ok('GET', `/api/teams/${team.id}/members`, ADMIN);
    expect(members.items.map((m: { id: string }) => m.id)).toEqual([member.id]);
    const oldTeam = await ok('GET', '/api/teams/team-northside-neuroradiology/members', ADMIN);
    expect(oldTeam.items.map((m: { id: string }) => m.id)).not.toContain(member.id);
    const departments = await ok('GET', '/api/departments', ADMIN);
    expect(departments.items.find((d: { id: string }) => d.id === department.id)).toMatchObject({
      teamCount: 1,
      memberCount: 1,
    });
    expect(
      (await ok('GET', '/api/users', ADMIN, { query: { departmentId: department.id } })).items.map(
        (u: { id: string }) => u.id,
      ),
    ).toEqual([member.id]);
    expect(
      (await ok('GET', '/api/users', ADMIN, { query: { q: 'tayl' } })).items.map((u: { id: string }) => u.id),
    ).toEqual([member.id]);
    expect(await ok('GET', '/api/hospital-admin/overview', ADMIN)).toMatchObject({
      teamsCount: 3,
      departmentsCount: 3,
    });

    const refused = await h.call('DELETE', `/api/departments/${department.id}`, { as: ADMIN });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('DEPARTMENT_NOT_EMPTY');

    await ok('PATCH', `/api/users/${member.id}/team`, ADMIN, { body: { teamId: 'team-northside-neuroradiology' } });
    await ok('POST', `/api/teams/${team.id}/archive`, ADMIN);
    expect((await ok('GET', '/api/teams', ADMIN)).items.map((t: { id: string }) => t.id)).not.toContain(team.id);
    expect(
      (await ok('GET', '/api/teams', ADMIN, { query: { includeArchived: 'true' } })).items.map(
        (t: { id: string }) => t.id,
      ),
    ).toContain(team.id);
  });

  it('lets two moves race for the last seat of a team: one gets it, the other is told the team is full', async () => {
    const team = await ok('POST', '/api/teams', ADMIN, {
      body: { name: 'Single Seat', departmentId: 'dept-northside-neurology', maxMembers: 1 },
    });
    const ids = await Promise.all(
      ['member', 'guest'].map(async (who) => (await ok('GET', '/api/me', `${who}@northside.demo.local`)).user.id),
    );
    const answers = await Promise.all(
      ids.map((id) => h.call('PATCH', `/api/users/${id}/team`, { as: ADMIN, body: { teamId: team.id } })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.body.error.code).toBe('TEAM_FULL');
    expect((await ok('GET', `/api/teams/${team.id}`, ADMIN)).memberCount).toBe(1);
    for (const id of ids)
      await ok('PATCH', `/api/users/${id}/team`, ADMIN, { body: { teamId: 'team-northside-neuroradiology' } });
    expect((await ok('GET', `/api/teams/${team.id}`, ADMIN)).memberCount).toBe(0);
  });

  it("gives the lead their team's overview from data, and counts a new dataset", async () => {
    const before = await ok('GET', '/api/teams/team-northside-neuroradiology', LEAD);
    expect(before.stats).toMatchObject({ activeMembers: 3, pendingInvites: 0 });
    await ok('POST', '/api/datasets', MEMBER, {
      body: newDatasetBody({ mrn: 'MRN-5', departmentId: 'dept-northside-radiology' }),
    });
    const after = await ok('GET', '/api/teams/team-northside-neuroradiology', LEAD);
    expect(after.stats.totalDatasets).toBe(before.stats.totalDatasets + 1);
    expect((await ok('GET', '/api/me', MEMBER)).user.departmentId).toBe('dept-northside-radiology');
  });

  it('lets only one of two simultaneous demotions of the last two active admins through', async () => {
    const admin = (await ok('GET', '/api/me', ADMIN)).user;
    await h.deps.directory.putUser({
      id: 'second-admin',
      email: 'second.admin@northside.demo.local',
      firstName: 'Second',
      lastName: 'Admin',
      role: 'HOSPITAL_ADMIN',
      status: 'ACTIVE',
      hospitalId: 'hosp-northside',
      teamId: null,
      permissions: ['*'],
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    const demote = (id: string) =>
      h.call('PATCH', `/api/users/${id}/role`, {
        as: SUPER,
        query: { hospitalId: 'hosp-northside' },
        body: { role: 'TEAM_MEMBER' },
      });
    const answers = await Promise.all([demote(admin.id), demote('second-admin')]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(['CONFLICT', 'LAST_HOSPITAL_ADMIN']).toContain(answers.find((a) => a.status === 409)!.body.error.code);
    const again = await demote(answers[0]!.status === 200 ? 'second-admin' : admin.id);
    expect(again.body.error.code).toBe('LAST_HOSPITAL_ADMIN');
    // Back as it was: promotions need no lease.
    for (const id of [admin.id, 'second-admin'])
      await ok('PATCH', `/api/users/${id}/role`, SUPER, {
        query: { hospitalId: 'hosp-northside' },
        body: { role: 'HOSPITAL_ADMIN' },
      });
    expect((await h.call('GET', '/api/me', { as: ADMIN })).status).toBe(200);
  });
});
