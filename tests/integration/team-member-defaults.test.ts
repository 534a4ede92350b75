import { describe, expect, it } from 'vitest';
import { DEFAULT_PERMISSIONS } from '#shared/vocabulary/roles.ts';
import { DEFAULT_TEAM_SETTINGS } from '#shared/schemas/api/organisation.ts';
import { useHarness } from '#tests/helpers/harness.ts';

/**
 * A team's "Default permissions of new members" through the real handlers (docs/domain.md#teams): a member who joins
 * the team by an invitation that named no permissions, or by a move on the Users page, is given the team's defaults
 * as they are when they join, and never a reserved permission.
 */
const ADMIN = 'admin@northside.demo.local';
const HOSPITAL = 'hosp-northside';
const DEPARTMENT = 'dept-northside-radiology';
const PASSWORD = 'Correct-Horse-42!';

const h = useHarness();
let n = 0;

async function newTeam(defaultPermissions: string[]): Promise<string> {
  const created = await h.call('POST', '/api/teams', {
    as: ADMIN,
    body: {
      name: `Defaults ${++n}`,
      departmentId: DEPARTMENT,
      settings: { ...DEFAULT_TEAM_SETTINGS, defaultPermissions },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as string;
}

async function setDefaults(teamId: string, defaultPermissions: string[]) {
  return h.call('PATCH', `/api/teams/${teamId}`, { as: ADMIN, body: { settings: { defaultPermissions } } });
}

/** Invites a new address to the team as the hospital admin, accepts the link; the new user's permissions. */
async function inviteAndAccept(
  teamId: string,
  body: Record<string, unknown>,
  between: () => Promise<unknown> = async () => {},
) {
  const email = `defaults-${++n}-${Date.now().toString(36)}@invitee.test`;
  const sent = await h.call('POST', `/api/teams/${teamId}/invitations`, { as: ADMIN, body: { email, ...body } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  await between();
  const mail = h.mailbox.findLast((m) => m.to === email)!;
  const token = new URL(mail.text.match(/https?:\/\/\S+/)![0]).searchParams.get('token')!;
  const accepted = await h.call('POST', '/api/invitations/accept', {
    body: { token, firstName: 'Sam', lastName: 'Joiner', password: PASSWORD },
  });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  const user = (await h.deps.organisation.findUserByEmail(email))!;
  return user.permissions;
}

async function userOf(role: 'TEAM_MEMBER' | 'TEAM_LEAD', teamId: string | null) {
  const id = `defaults-user-${++n}-${Date.now().toString(36)}`;
  await h.deps.directory.putUser({
    id,
    email: `${id}@northside.demo.local`,
    firstName: 'Moved',
    lastName: 'Member',
    role,
    status: 'ACTIVE',
    hospitalId: HOSPITAL,
    teamId,
    departmentId: DEPARTMENT,
    permissions: [...DEFAULT_PERMISSIONS[role], 'MANAGE_MEMBERS'],
    createdAt: new Date().toISOString(),
  });
  return id;
}

describe("a team's default permissions of new members", () => {
  it('are given on acceptance to a member invited with none named, as the team has them then', async () => {
    const team = await newTeam(['VIEW_DATASETS', 'VIEW_ANALYTICS']);
    const permissions = await inviteAndAccept(team, { role: 'MEMBER' }, async () => {
      expect((await setDefaults(team, ['VIEW_DATASETS', 'DELETE_DATA'])).status).toBe(200);
    });
    expect(permissions).toEqual(['VIEW_DATASETS', 'DELETE_DATA']);
  });

  it('leave named permissions, guests and leads as they were', async () => {
    const team = await newTeam(['VIEW_DATASETS', 'VIEW_ANALYTICS']);
    expect(await inviteAndAccept(team, { role: 'MEMBER', permissions: ['VIEW_DATASETS', 'UPLOAD_DICOM'] })).toEqual([
      'VIEW_DATASETS',
      'UPLOAD_DICOM',
    ]);
    expect(await inviteAndAccept(team, { role: 'GUEST' })).toEqual(DEFAULT_PERMISSIONS.GUEST);
  });

  it('give EXPORT_DATA like any other permission, now that the export checks it', async () => {
    const team = await newTeam(['VIEW_DATASETS']);
    expect((await setDefaults(team, ['VIEW_DATASETS', 'EXPORT_DATA'])).status).toBe(200);
    expect(await inviteAndAccept(team, { role: 'MEMBER' })).toEqual(['VIEW_DATASETS', 'EXPORT_DATA']);
  });

  it('are given to a member moved into the team; a lead keeps theirs', async () => {
    const team = await newTeam(['VIEW_DATASETS', 'SHARE_DATA']);
    const member = await userOf('TEAM_MEMBER', null);
    const moved = await h.call('PATCH', `/api/users/${member}/team`, { as: ADMIN, body: { teamId: team } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await h.deps.directory.getUser(HOSPITAL, member))!.permissions).toEqual(['VIEW_DATASETS', 'SHARE_DATA']);

    const lead = await userOf('TEAM_LEAD', null);
    expect((await h.call('PATCH', `/api/users/${lead}/team`, { as: ADMIN, body: { teamId: team } })).status).toBe(200);
    expect((await h.deps.directory.getUser(HOSPITAL, lead))!.permissions).toEqual([
      ...DEFAULT_PERMISSIONS.TEAM_LEAD,
      'MANAGE_MEMBERS',
    ]);
  });

  it("hold a member who invites to what they hold themselves: the team's defaults count as given", async () => {
    const demo = 'team-northside-neuroradiology';
    const member = 'member@northside.demo.local';
    await h.deps.organisation.updateUser(HOSPITAL, h.userId(member), {
      permissions: [...DEFAULT_PERMISSIONS.TEAM_MEMBER, 'SEND_INVITATIONS'],
      updatedAt: new Date().toISOString(),
    });
    const settings = (defaultPermissions: string[]) =>
      h.call('PATCH', `/api/teams/${demo}`, {
        as: ADMIN,
        body: { settings: { allowMemberInvitations: true, defaultPermissions } },
      });
    const invite = () =>
      h.call('POST', `/api/teams/${demo}/invitations`, {
        as: member,
        body: { email: `defaults-${++n}-${Date.now().toString(36)}@invitee.test`, role: 'MEMBER' },
      });
    try {
      expect((await settings(['VIEW_DATASETS', 'DELETE_DATA'])).status).toBe(200);
      expect((await invite()).status).toBe(403);
      expect((await settings(['VIEW_DATASETS'])).status).toBe(200);
      expect((await invite()).status).toBe(201);
    } finally {
      await settings(DEFAULT_TEAM_SETTINGS.defaultPermissions);
      await h.call('PATCH', `/api/teams/${demo}`, { as: ADMIN, body: { settings: { allowMemberInvitations: false } } });
      await h.deps.organisation.updateUser(HOSPITAL, h.userId(member), {
        permissions: [...DEFAULT_PERMISSIONS.TEAM_MEMBER],
        updatedAt: new Date().toISOString(),
      });
    }
  });
});
