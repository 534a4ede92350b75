import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PERMISSIONS, type Permission, type PermissionGrant, type Role } from '#shared/vocabulary/roles.ts';
import { useHarness } from '#tests/helpers/harness.ts';
import { datasetRecord } from '#tests/helpers/datasets.ts';
import { subOf } from './datasets-harness.ts';

/**
 * Every permission a route checks (docs/roles-and-permissions.md#permission-checks), through the HTTP routes in
 * process: for each permission x role x route it gates, the caller granted it is let through and the caller without it
 * answers 403. The callers are the demo team's lead, member and guest; their permissions are set on their user item
 * before each call (each request reads it), as the change-permissions route would.
 */
const HOSPITAL = 'hosp-northside';
const TEAM = 'team-northside-neuroradiology';
const OTHER_TEAM = 'team-northside-stroke';
const CALLERS: Record<Exclude<Role, 'SUPER_ADMIN' | 'HOSPITAL_ADMIN'>, string> = {
  TEAM_LEAD: 'lead@northside.demo.local',
  TEAM_MEMBER: 'member@northside.demo.local',
  GUEST: 'guest@northside.demo.local',
};
type Caller = keyof typeof CALLERS;
const ADMIN = 'admin@northside.demo.local';

const h = useHarness();
let counter = 0;

/** The team's "Members may invite" switch, as its lead sets it on the team page. */
async function membersMayInvite(on: boolean): Promise<void> {
  const saved = await h.call('PATCH', `/api/teams/${TEAM}`, {
    as: CALLERS.TEAM_LEAD,
    body: { settings: { allowMemberInvitations: on } },
  });
  expect(saved.status).toBe(200);
}

// A member's SEND_INVITATIONS counts only where the team lets members invite (off by default); its own tests below.
beforeAll(() => membersMayInvite(true));
const fresh = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++counter}`;

/** A member of our team to act on; its id. */
async function target(role: Role = 'TEAM_MEMBER', teamId = TEAM): Promise<string> {
  const id = fresh('user');
  const now = new Date().toISOString();
  await h.deps.directory.putUser({
    id,
    email: `${id}@northside.demo.local`,
    firstName: 'Fresh',
    lastName: 'Fixture',
    role,
    status: 'ACTIVE',
    hospitalId: HOSPITAL,
    teamId,
    departmentId: 'dept-northside-radiology',
    permissions: [...DEFAULT_PERMISSIONS[role]],
    createdAt: now,
  });
  return id;
}

/** A COMPLETE dataset of our team, owned by its member; its id. */
async function completeDataset(): Promise<string> {
  const id = fresh('ds-export');
  await h.deps.datasets.create(
    datasetRecord({ id, hospitalId: HOSPITAL, teamId: TEAM, ownerUserId: subOf(CALLERS.TEAM_MEMBER) }),
  );
  return id;
}

/** A pending invitation to our team; its id. */
async function invitation(): Promise<string> {
  const id = fresh('inv');
  const now = new Date().toISOString();
  const email = `invitee-${id}@northside.demo.local`;
  await h.deps.invitations.create({
    id,
    hospitalId: HOSPITAL,
    email,
    emailKey: email,
    fullName: 'Robin Invitee',
    role: 'TEAM_MEMBER',
    teamRole: 'MEMBER',
    permissions: ['VIEW_DATASETS'],
    departmentId: 'dept-northside-radiology',
    departmentName: 'Radiology',
    teamId: TEAM,
    teamName: 'Neuroradiology',
    specialization: null,
    message: null,
    status: 'PENDING',
    tokenHash: createHash('sha256').update(randomBytes(32)).digest('hex'),
    createdAt: now,
    updatedAt: now,
    sentAt: now,
    expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    expiresInDays: 7,
    invitedByUserId: subOf('admin@northside.demo.local'),
    invitedByName: 'Alex Morgan',
    acceptedAt: null,
    acceptedUserId: null,
  });
  return id;
}

/** The caller's permissions: their role's defaults with `permission` added or taken away. */
async function grant(caller: Caller, permission: Permission, on: boolean): Promise<void> {
  const base = DEFAULT_PERMISSIONS[caller].filter((p) => p !== permission);
  const permissions: PermissionGrant[] = on ? [...base, permission] : base;
  await h.deps.organisation.updateUser(HOSPITAL, subOf(CALLERS[caller]), {
    permissions,
    updatedAt: new Date().toISOString(),
  });
}

type Call = { method: string; path: string; body?: unknown; query?: Record<string, string> };
type Gate = { permission: Permission; route: string; prepare: () => Promise<Call>; ok: number };

const GATES: Gate[] = [
  {
    permission: 'MANAGE_MEMBERS',
    route: 'PATCH /api/teams/{teamId}/members/{memberId}/role',
    prepare: async () => ({
      method: 'PATCH',
      path: `/api/teams/${TEAM}/members/${await target()}/role`,
      body: { role: 'GUEST' },
    }),
    ok: 200,
  },
  {
    permission: 'MANAGE_MEMBERS',
    route: 'PATCH /api/teams/{teamId}/members/{memberId}/permissions',
    prepare: async () => ({
      method: 'PATCH',
      path: `/api/teams/${TEAM}/members/${await target()}/permissions`,
      body: { permissions: ['VIEW_DATASETS'] },
    }),
    ok: 200,
  },
  {
    permission: 'MANAGE_MEMBERS',
    route: 'DELETE /api/teams/{teamId}/members/{memberId}',
    prepare: async () => ({ method: 'DELETE', path: `/api/teams/${TEAM}/members/${await target()}` }),
    ok: 204,
  },
  {
    permission: 'SEND_INVITATIONS',
    route: 'GET /api/teams/{teamId}/invitations',
    prepare: async () => ({ method: 'GET', path: `/api/teams/${TEAM}/invitations` }),
    ok: 200,
  },
  {
    permission: 'SEND_INVITATIONS',
    route: 'POST /api/teams/{teamId}/invitations',
    prepare: async () => ({
      method: 'POST',
      path: `/api/teams/${TEAM}/invitations`,
      body: { email: `${fresh('new')}@invitee.test`, role: 'GUEST', permissions: ['VIEW_DATASETS'], expiresInDays: 7 },
    }),
    ok: 201,
  },
  {
    permission: 'SEND_INVITATIONS',
    route: 'POST /api/teams/{teamId}/invitations/{invitationId}/resend',
    prepare: async () => ({ method: 'POST', path: `/api/teams/${TEAM}/invitations/${await invitation()}/resend` }),
    ok: 200,
  },
  {
    permission: 'SEND_INVITATIONS',
    route: 'DELETE /api/teams/{teamId}/invitations/{invitationId}',
    prepare: async () => ({ method: 'DELETE', path: `/api/teams/${TEAM}/invitations/${await invitation()}` }),
    ok: 200,
  },
  {
    permission: 'VIEW_ANALYTICS',
    route: 'GET /api/reports',
    prepare: async () => ({ method: 'GET', path: '/api/reports', query: { months: '3' } }),
    ok: 200,
  },
  {
    permission: 'EXPORT_DATA',
    route: 'POST /api/datasets/{id}/exports',
    prepare: async () => ({
      method: 'POST',
      path: `/api/datasets/${await completeDataset()}/exports`,
      body: { format: 'dicom' },
    }),
    ok: 202,
  },
];

async function callAs(caller: Caller, call: Call) {
  return h.call(call.method, call.path, { as: CALLERS[caller], body: call.body, query: call.query });
}

describe('each permission is checked by the routes it gates', () => {
  describe.each(GATES)('$permission on $route', (gate) => {
    it.each(Object.keys(CALLERS) as Caller[])('as %s: granted, allowed; not granted, 403', async (caller) => {
      await grant(caller, gate.permission, true);
      const allowed = await callAs(caller, await gate.prepare());
      expect(allowed.status, JSON.stringify(allowed.body)).toBe(gate.ok);

      await grant(caller, gate.permission, false);
      const refused = await callAs(caller, await gate.prepare());
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('ACCESS_DENIED');
      await grant(caller, gate.permission, DEFAULT_PERMISSIONS[caller].includes(gate.permission));
    });
  });

  it('shows a member granted VIEW_ANALYTICS the team figures on the dashboard, and not without it', async () => {
    const stats = async () =>
      ((await callAs('TEAM_MEMBER', { method: 'GET', path: '/api/dashboard' })).body.stats as { label: string }[]).map(
        (s) => s.label,
      );
    await grant('TEAM_MEMBER', 'VIEW_ANALYTICS', true);
    expect(await stats()).toEqual(['Team Members', 'Active Datasets', 'Patients Analyzed', 'Team Storage']);
    await grant('TEAM_MEMBER', 'VIEW_ANALYTICS', false);
    expect(await stats()).toEqual(['Patients Analyzed', 'Storage Used']);
  });

  it("scopes a member's reports to their own team", async () => {
    await grant('TEAM_MEMBER', 'VIEW_ANALYTICS', true);
    const reports = await callAs('TEAM_MEMBER', { method: 'GET', path: '/api/reports', query: { months: '12' } });
    expect(reports.status).toBe(200);
    expect(reports.body.byTeam.every((t: { teamId: string | null }) => t.teamId === TEAM)).toBe(true);
    await grant('TEAM_MEMBER', 'VIEW_ANALYTICS', false);
  });
});

describe('a member granted MANAGE_MEMBERS or SEND_INVITATIONS does what a lead does for members, no more', () => {
  it('may not make anyone a lead, act on a lead, give a permission they lack, or reach another team', async () => {
    await grant('TEAM_MEMBER', 'MANAGE_MEMBERS', true);
    const promote = await callAs('TEAM_MEMBER', {
      method: 'PATCH',
      path: `/api/teams/${TEAM}/members/${await target()}/role`,
      body: { role: 'LEAD' },
    });
    expect(promote.status).toBe(403);
    const lead = await callAs('TEAM_MEMBER', {
      method: 'DELETE',
      path: `/api/teams/${TEAM}/members/${await target('TEAM_LEAD')}`,
    });
    expect(lead.status).toBe(403);
    const more = await callAs('TEAM_MEMBER', {
      method: 'PATCH',
      path: `/api/teams/${TEAM}/members/${await target()}/permissions`,
      body: { permissions: ['VIEW_DATASETS', 'DELETE_DATA'] },
    });
    expect(more.status).toBe(403);
    const elsewhere = await callAs('TEAM_MEMBER', {
      method: 'DELETE',
      path: `/api/teams/${OTHER_TEAM}/members/${await target('TEAM_MEMBER', OTHER_TEAM)}`,
    });
    expect(elsewhere.status).toBe(404);
    await grant('TEAM_MEMBER', 'MANAGE_MEMBERS', false);

    await grant('TEAM_MEMBER', 'SEND_INVITATIONS', true);
    const inviteLead = await callAs('TEAM_MEMBER', {
      method: 'POST',
      path: `/api/teams/${TEAM}/invitations`,
      body: { email: `${fresh('new')}@invitee.test`, role: 'LEAD', permissions: ['VIEW_DATASETS'], expiresInDays: 7 },
    });
    expect(inviteLead.status).toBe(403);
    const otherTeam = await callAs('TEAM_MEMBER', { method: 'GET', path: `/api/teams/${OTHER_TEAM}/invitations` });
    expect(otherTeam.status).toBe(404);
    await grant('TEAM_MEMBER', 'SEND_INVITATIONS', false);
  });

  it('lets the lead do all of it', async () => {
    const promote = await callAs('TEAM_LEAD', {
      method: 'PATCH',
      path: `/api/teams/${TEAM}/members/${await target()}/role`,
      body: { role: 'LEAD' },
    });
    expect(promote.status).toBe(200);
  });
});

describe('EXPORT_DATA is given like any other permission now that the export checks it', () => {
  it('is accepted by the change-permissions route and by a team invitation', async () => {
    const change = await callAs('TEAM_LEAD', {
      method: 'PATCH',
      path: `/api/teams/${TEAM}/members/${await target()}/permissions`,
      body: { permissions: ['VIEW_DATASETS', 'EXPORT_DATA'] },
    });
    expect(change.status).toBe(200);
    const invite = await callAs('TEAM_LEAD', {
      method: 'POST',
      path: `/api/teams/${TEAM}/invitations`,
      body: { email: `${fresh('new')}@invitee.test`, role: 'MEMBER', permissions: ['EXPORT_DATA'], expiresInDays: 7 },
    });
    expect(invite.status).toBe(201);
  });
});

describe('"Members may invite" off: SEND_INVITATIONS is not enough for a member or guest', () => {
  const routes: Gate[] = GATES.filter((g) => g.permission === 'SEND_INVITATIONS');

  it.each(['TEAM_MEMBER', 'GUEST'] as Caller[])(
    'refuses %s granted it on every team invitation route',
    async (caller) => {
      await membersMayInvite(false);
      await grant(caller, 'SEND_INVITATIONS', true);
      try {
        for (const gate of routes) {
          const refused = await callAs(caller, await gate.prepare());
          expect(refused.status, gate.route).toBe(403);
          expect(refused.body.error.code).toBe('ACCESS_DENIED');
        }
        // Another team still answers 404 first.
        const otherTeam = await callAs(caller, { method: 'GET', path: `/api/teams/${OTHER_TEAM}/invitations` });
        expect(otherTeam.status).toBe(404);
      } finally {
        await grant(caller, 'SEND_INVITATIONS', false);
        await membersMayInvite(true);
      }
    },
  );

  it('leaves the lead and the hospital admin as they were', async () => {
    await membersMayInvite(false);
    try {
      for (const gate of routes) {
        const lead = await callAs('TEAM_LEAD', await gate.prepare());
        expect(lead.status, gate.route).toBe(gate.ok);
        const call = await gate.prepare();
        const admin = await h.call(call.method, call.path, { as: ADMIN, body: call.body, query: call.query });
        expect(admin.status, gate.route).toBe(gate.ok);
      }
    } finally {
      await membersMayInvite(true);
    }
  });
});
