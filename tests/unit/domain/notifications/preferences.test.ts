import { describe, expect, it } from 'vitest';
import { acceptInvitation } from '#shared/domain/invitations/answer-invitation.ts';
import { inviteOne } from '#shared/domain/invitations/send-invitation.ts';
import { notifyWhoWants } from '#shared/domain/notifications/preferences.ts';
import { setHospitalSettings, setTeamPolicy } from '#shared/domain/settings/policies.ts';
import type { UserRecord } from '#shared/domain/auth/ports.ts';
import { SingleInvitationSchema } from '#shared/schemas/api/invitations.ts';
import { DEFAULT_HOSPITAL_POLICY, DEFAULT_NOTIFICATION_PREFERENCES } from '#shared/schemas/api/policies.ts';
import { NORTHSIDE_PROFILE } from '#tests/helpers/fixtures.ts';
import { caller, fakeInvitationWorld, ports } from '#tests/unit/domain/fakes.ts';
import { createMemoryNotificationInbox, createMemorySettingsStore } from '#functions/adapters/memory/index.ts';

const admin = caller('HOSPITAL_ADMIN');
const lead = caller('TEAM_LEAD');
const clock = { now: () => '2026-03-01T09:00:00.000Z' };

const adminUser = (id: string, status: UserRecord['status'] = 'ACTIVE', hospitalId = 'h1'): UserRecord => ({
  id,
  email: `${id}@x.test`,
  firstName: 'A',
  lastName: id,
  role: 'HOSPITAL_ADMIN',
  status,
  hospitalId,
  teamId: null,
  permissions: [],
  createdAt: clock.now(),
});

describe('notifications honour the recipient’s preferences', () => {
  it('delivers to those who keep the topic on, with the defaults for those who never saved any', async () => {
    const notifications = createMemoryNotificationInbox();
    const settings = createMemorySettingsStore();
    await settings.putNotificationPreferences('h1', 'off', {
      ...DEFAULT_NOTIFICATION_PREFERENCES,
      complianceAlerts: false,
    });
    await settings.putNotificationPreferences('h1', 'on', { ...DEFAULT_NOTIFICATION_PREFERENCES, teamActivity: true });
    const content = { type: 'POLICY_CHANGED' as const, title: 'Policy changed' };
    const deps = { notifications, settings, clock };
    expect(await notifyWhoWants('h1', ['default', 'off', 'default'], 'complianceAlerts', content, deps)).toEqual([
      'default',
    ]);
    // Team activity is off by default (docs/domain.md#notifications).
    expect(await notifyWhoWants('h1', ['default', 'on'], 'teamActivity', content, deps)).toEqual(['on']);
    expect(notifications.items.map((n) => [n.userId, n.read])).toEqual([
      ['default', false],
      ['on', false],
    ]);
    expect(await notifyWhoWants('h1', ['on'], 'teamActivity', content, { clock })).toEqual([]);
  });
});

describe('invitation accepted', () => {
  const invite = SingleInvitationSchema.parse({ fullName: 'Jordan Lee', email: 'jordan@x.test', role: 'team_member' });

  it('tells the inviter when they keep "Team activity" on, and no one else', async () => {
    const w = fakeInvitationWorld();
    const notifications = createMemoryNotificationInbox();
    const settings = createMemorySettingsStore();
    await settings.putNotificationPreferences('h1', admin.userId, {
      ...DEFAULT_NOTIFICATION_PREFERENCES,
      teamActivity: true,
    });
    const deps = { ...w.deps, notifications, settings };
    await inviteOne(invite, admin, deps);
    await acceptInvitation(
      { token: w.tokenFor('jordan@x.test')!, firstName: 'Jordan', lastName: 'Lee', password: 'Str0ng!Passw0rd' },
      deps,
    );
    expect(notifications.items).toHaveLength(1);
    expect(notifications.items[0]).toMatchObject({
      hospitalId: 'h1',
      userId: admin.userId,
      type: 'INVITATION_ACCEPTED',
      title: 'Invitation accepted',
      description: 'Jordan Lee accepted your invitation and joined.',
      read: false,
    });
  });

  it('stays silent for an inviter with the default preferences (Team activity off)', async () => {
    const w = fakeInvitationWorld();
    const notifications = createMemoryNotificationInbox();
    const deps = { ...w.deps, notifications, settings: createMemorySettingsStore() };
    await inviteOne(invite, admin, deps);
    await acceptInvitation(
      { token: w.tokenFor('jordan@x.test')!, firstName: 'Jordan', lastName: 'Lee', password: 'Str0ng!Passw0rd' },
      deps,
    );
    expect(notifications.items).toEqual([]);
  });
});

describe('policy changes', () => {
  async function world() {
    const p = ports();
    for (const u of [
      adminUser(admin.userId),
      adminUser('a2'),
      adminUser('a3'),
      adminUser('a4', 'DISABLED'),
      adminUser('other', 'ACTIVE', 'h2'),
    ])
      await p.directory.putUser(u);
    await p.settings.putNotificationPreferences('h1', 'a3', {
      ...DEFAULT_NOTIFICATION_PREFERENCES,
      securityEvents: false,
    });
    return p;
  }

  it("tells the hospital's other ACTIVE admins who keep Security events on when the hospital settings change", async () => {
    const p = await world();
    await setHospitalSettings({ profile: NORTHSIDE_PROFILE, policy: DEFAULT_HOSPITAL_POLICY }, admin, p);
    const policyNotes = p.notifications.items.filter((n) => n.type === 'POLICY_CHANGED');
    expect(policyNotes.map((n) => [n.hospitalId, n.userId])).toEqual([['h1', 'a2']]);
    expect(policyNotes[0]).toMatchObject({
      title: 'Policy changed',
      description: `${admin.firstName} ${admin.lastName} changed the hospital settings.`,
      href: '/hospital-admin/settings',
    });
  });

  it("tells them when a lead changes their team's policy", async () => {
    const p = await world();
    const teams = { getTeam: async (_h: string, t: string) => (t === 't1' ? { id: 't1' } : undefined) };
    await setTeamPolicy(lead, 't1', { maxFileSizeMB: 100 }, { ...p, teams });
    const policyNotes = p.notifications.items.filter((n) => n.type === 'POLICY_CHANGED');
    expect(policyNotes.map((n) => n.userId).sort()).toEqual([admin.userId, 'a2'].sort());
    expect(policyNotes[0]!.description).toBe(`${lead.firstName} ${lead.lastName} changed a team's policy.`);
  });
});
