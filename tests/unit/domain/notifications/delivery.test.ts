import { describe, expect, it } from 'vitest';
import { digestPeriod, duePeriods, planDelivery, type PreferenceTopic } from '#shared/domain/notifications/delivery.ts';
import { deliverToWhoWants } from '#shared/domain/notifications/preferences.ts';
import type { MailMessage } from '#shared/domain/invitations/ports.ts';
import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  NOTIFICATION_FREQUENCIES,
  type NotificationPreferences,
} from '#shared/schemas/api/policies.ts';
import {
  createMemoryNotificationInbox,
  createMemoryNotificationLedger,
  createMemorySettingsStore,
} from '#functions/adapters/memory/index.ts';

const prefs = (over: Partial<NotificationPreferences> = {}): NotificationPreferences => ({
  ...DEFAULT_NOTIFICATION_PREFERENCES,
  teamActivity: true,
  ...over,
});
const contact = { email: 'admin@northside.test', phone: '+44 7700 900123' };
const TOPICS: PreferenceTopic[] = [
  'usageThresholds',
  'billingAlerts',
  'complianceAlerts',
  'teamActivity',
  'securityEvents',
];

describe('delivery decisions: channel x frequency x topic (docs/domain.md#notifications)', () => {
  it('delivers nothing on any channel when the topic is off', () => {
    for (const topic of TOPICS)
      expect(planDelivery(prefs({ [topic]: false, sms: true }), topic, contact)).toEqual({
        inApp: false,
        email: 'none',
        sms: false,
      });
  });

  it.each(NOTIFICATION_FREQUENCIES)('with frequency %s, e-mails an ordinary topic at once only when immediate', (f) => {
    for (const topic of TOPICS.filter((t) => t !== 'securityEvents')) {
      const plan = planDelivery(prefs({ frequency: f, sms: true }), topic, contact);
      expect(plan).toEqual({ inApp: true, email: f === 'immediate' ? 'now' : 'digest', sms: false });
    }
  });

  it.each(NOTIFICATION_FREQUENCIES)('with frequency %s, e-mails and texts a security event at once', (f) => {
    expect(planDelivery(prefs({ frequency: f, sms: true }), 'securityEvents', contact)).toEqual({
      inApp: true,
      email: 'now',
      sms: true,
    });
  });

  it('sends no e-mail with e-mail off or no address, and no SMS without the choice or a textable number', () => {
    expect(planDelivery(prefs({ email: false }), 'billingAlerts', contact).email).toBe('none');
    expect(planDelivery(prefs(), 'billingAlerts', { phone: contact.phone }).email).toBe('none');
    expect(planDelivery(prefs({ sms: false }), 'securityEvents', contact).sms).toBe(false);
    expect(planDelivery(prefs({ sms: true }), 'securityEvents', { email: contact.email }).sms).toBe(false);
    expect(planDelivery(prefs({ sms: true }), 'securityEvents', { phone: '0770 0900 123' }).sms).toBe(false);
  });

  it('files a digest item under the day, or under the Monday of its week', () => {
    // 2026-11-26 is a Thursday.
    expect(digestPeriod('daily', '2026-11-26T18:30:00.000Z')).toBe('D2026-11-26');
    expect(digestPeriod('weekly', '2026-11-26T18:30:00.000Z')).toBe('W2026-11-23');
    expect(digestPeriod('weekly', '2026-11-23T00:00:00.000Z')).toBe('W2026-11-23');
    expect(duePeriods('2026-11-27T07:00:00.000Z')).toEqual(['D2026-11-26']);
    // On Monday 2026-11-30, Sunday's daily digest and the week that began on Monday 2026-11-23.
    expect(duePeriods('2026-11-30T07:00:00.000Z')).toEqual(['D2026-11-29', 'W2026-11-23']);
  });
});

describe('deliverToWhoWants', () => {
  async function world(preferences: Record<string, NotificationPreferences>) {
    const settings = createMemorySettingsStore();
    for (const [userId, p] of Object.entries(preferences)) {
      await settings.putNotificationPreferences('h1', userId, p);
      await settings.updateUserProfile('h1', userId, { firstName: 'A', lastName: userId, phone: contact.phone });
      settings.profiles.get(`h1/${userId}`)!.email = `${userId}@northside.test`;
    }
    const mailbox: MailMessage[] = [];
    const texts: { to: string; text: string }[] = [];
    let n = 0;
    return {
      mailbox,
      texts,
      deps: {
        settings,
        notifications: createMemoryNotificationInbox(),
        notificationLedger: createMemoryNotificationLedger(),
        mailer: { send: async (m: MailMessage) => void mailbox.push(m) },
        sms: { send: async (m: { to: string; text: string }) => void texts.push(m) },
        siteOrigin: 'https://imaging.example.test',
        clock: { now: () => '2026-11-26T10:00:00.000Z' },
        ids: { newId: () => `n${++n}` },
      },
    };
  }
  const content = {
    type: 'FAILED_SIGN_INS' as const,
    title: 'Repeated failed sign-ins',
    description: '5 sign-in attempts failed within 15 minutes.',
    href: '/hospital-admin/users',
  };

  it('reaches each recipient by the channels they chose', async () => {
    const w = await world({
      now: prefs(),
      texted: prefs({ sms: true }),
      quiet: prefs({ securityEvents: false }),
      bellOnly: prefs({ email: false }),
    });
    const reached = await deliverToWhoWants(
      'h1',
      ['now', 'texted', 'quiet', 'bellOnly'],
      'securityEvents',
      content,
      w.deps,
    );
    expect(reached.map((r) => [r.userId, r.email, r.sms])).toEqual([
      ['now', 'now', false],
      ['texted', 'now', true],
      ['bellOnly', 'none', false],
    ]);
    expect(w.deps.notifications.items.map((n) => n.userId)).toEqual(['now', 'texted', 'bellOnly']);
    expect(w.mailbox.map((m) => [m.to, m.tag, m.subject])).toEqual([
      ['now@northside.test', 'notification', 'Repeated failed sign-ins'],
      ['texted@northside.test', 'notification', 'Repeated failed sign-ins'],
    ]);
    expect(w.mailbox[0]!.text).toContain('https://imaging.example.test/hospital-admin/users');
    expect(w.texts).toEqual([
      {
        to: '+447700900123',
        text: 'Imaging Workspace: Repeated failed sign-ins. 5 sign-in attempts failed within 15 minutes.',
      },
    ]);
  });

  it('queues the e-mail of a daily-digest reader instead of sending it', async () => {
    const w = await world({ digest: prefs({ frequency: 'daily' }) });
    await deliverToWhoWants('h1', ['digest'], 'billingAlerts', { ...content, type: 'BILL_UPCOMING' }, w.deps);
    expect(w.mailbox).toEqual([]);
    expect(await w.deps.notificationLedger.listDigestItems('h1', 'D2026-11-26')).toMatchObject([
      { userId: 'digest', id: 'n1', type: 'BILL_UPCOMING', title: content.title },
    ]);
    expect(w.deps.notifications.items).toHaveLength(1);
  });

  it('keeps the bell and the text message when the mail service refuses, and says the e-mail failed', async () => {
    // Arrange
    const w = await world({ texted: prefs({ sms: true }) });
    const deps = { ...w.deps, mailer: { send: () => Promise.reject(new Error('MessageRejected')) } };

    // Act
    const reached = await deliverToWhoWants('h1', ['texted'], 'securityEvents', content, deps);

    // Assert
    expect(reached).toEqual([{ userId: 'texted', inApp: true, email: 'failed', sms: true }]);
    expect(w.deps.notifications.items).toHaveLength(1);
    expect(w.texts).toHaveLength(1);
  });
});
