import type { PreAuthenticationTriggerEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as signInEvents } from '#functions/triggers/sign-in-events.ts';
import { DEFAULT_NOTIFICATION_PREFERENCES } from '#shared/schemas/api/policies.ts';
import { sendDailyNotifications } from '#shared/domain/notifications/daily.ts';
import { startHarness, type Harness } from './datasets-harness.ts';

/**
 * Notifications that reach people (docs/domain.md#notifications), through the DynamoDB adapters and the real
 * handlers: a hospital admin who chose e-mail for security events gets one when a user of the hospital fails to sign
 * in five times within 15 minutes (docs/domain.md#security-alerts).
 */
const ADMIN = 'admin@northside.demo.local';
const MEMBER = 'member@northside.demo.local';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.stop();
});

/** What the user pool hands its pre-authentication trigger when a known user starts a password sign-in. */
function attempt(email: string): PreAuthenticationTriggerEvent {
  const user = h.user(email);
  return {
    version: '1',
    region: 'us-east-1',
    userPoolId: 'us-east-1_Harness',
    userName: h.userId(email),
    triggerSource: 'PreAuthentication_Authentication',
    callerContext: { awsSdkVersion: '3', clientId: 'harness-site-client' },
    request: { userAttributes: { sub: h.userId(email), email, 'custom:hospitalId': user.hospitalId } },
    response: {},
  } as unknown as PreAuthenticationTriggerEvent;
}

describe('security alert: a burst of failed sign-ins', () => {
  it('e-mails the hospital admin who chose e-mail for security events, once, after five failed sign-ins', async () => {
    // Arrange: the admin keeps security events on, by e-mail, in a daily digest (security is urgent: sent at once).
    const saved = await h.call('PUT', '/api/me/notification-preferences', {
      as: ADMIN,
      body: { ...DEFAULT_NOTIFICATION_PREFERENCES, email: true, frequency: 'daily', securityEvents: true },
    });
    expect(saved.status).toBe(200);
    const before = h.mailbox.length;

    // Act: five sign-ins of the member that never succeed (a wrong password runs only the pre-authentication trigger).
    for (let i = 0; i < 4; i++) await signInEvents(attempt(MEMBER));
    const afterFour = h.mailbox.slice(before).filter((m) => m.tag === 'notification');
    await signInEvents(attempt(MEMBER));

    // Assert
    expect(afterFour).toEqual([]);
    const alerts = h.mailbox.slice(before).filter((m) => m.tag === 'notification');
    expect(alerts.map((m) => [m.to, m.subject])).toEqual([[ADMIN, 'Repeated failed sign-ins']]);
    expect(alerts[0]!.text).toContain(h.userId(MEMBER));
    expect(alerts[0]!.text).toContain('http://localhost:3000/hospital-admin/compliance');
    const bell = await h.call('GET', '/api/notifications', { as: ADMIN });
    expect(bell.body.items.filter((n: { type: string }) => n.type === 'FAILED_SIGN_INS')).toHaveLength(1);
  });

  it('forgets the attempts of a user who then signs in', async () => {
    // Arrange
    const before = h.mailbox.length;
    const success = { ...attempt(MEMBER), triggerSource: 'PostAuthentication_Authentication' };

    // Act: four failures, a success, four more failures: never five without a success.
    for (let i = 0; i < 4; i++) await signInEvents(attempt(MEMBER));
    await signInEvents(success as never);
    for (let i = 0; i < 4; i++) await signInEvents(attempt(MEMBER));

    // Assert
    expect(h.mailbox.slice(before).filter((m) => m.tag === 'notification')).toEqual([]);
  });
});

describe('security alert: a SCIM token created and revoked', () => {
  it("e-mails the hospital's admins, the one who acted included, with the token's id and not its name", async () => {
    // Arrange
    const before = h.mailbox.length;

    // Act
    const created = await h.call('POST', '/api/hospital-admin/scim-tokens', {
      as: ADMIN,
      body: { name: 'Identity provider sync' },
    });
    const revoked = await h.call('DELETE', `/api/hospital-admin/scim-tokens/${created.body.item.id}`, { as: ADMIN });

    // Assert
    expect([created.status, revoked.status]).toEqual([201, 200]);
    const alerts = h.mailbox.slice(before).filter((m) => m.tag === 'notification');
    expect(alerts.map((m) => [m.to, m.subject])).toEqual([
      [ADMIN, 'SCIM token created'],
      [ADMIN, 'SCIM token revoked'],
    ]);
    expect(
      alerts.every((m) => m.text.includes(created.body.item.id) && !m.text.includes('Identity provider sync')),
    ).toBe(true);
  });
});

describe('the daily notifications job: next-bill notice and digests', () => {
  const at = (now: string) => ({ ...h.deps, clock: { now: () => now } });
  const LAKEVIEW_ADMIN = 'admin@lakeview.demo.local';

  it("sends a digest reader's bill notice in the next day's digest, once however often the job runs", async () => {
    // Arrange: the Northside admin reads a daily digest, the Lakeview admin keeps the defaults (immediate).
    const saved = await h.call('PUT', '/api/me/notification-preferences', {
      as: ADMIN,
      body: { ...DEFAULT_NOTIFICATION_PREFERENCES, frequency: 'daily', billingAlerts: true },
    });
    expect(saved.status).toBe(200);
    const before = h.mailbox.length;
    const mails = () => h.mailbox.slice(before);

    // Act: two days before the bill of 2026-12-01, then the next morning twice (a retried schedule).
    const first = await sendDailyNotifications(at('2026-11-29T07:00:00.000Z'));
    const afterFirst = mails().map((m) => [m.to, m.tag, m.subject]);
    const second = await sendDailyNotifications(at('2026-11-30T07:00:00.000Z'));
    const again = await sendDailyNotifications(at('2026-11-30T07:05:00.000Z'));

    // Assert: the notice is raised once a month per hospital; immediate readers get it at once.
    expect(first.billNotices).toBeGreaterThanOrEqual(2);
    expect(second.billNotices).toBe(0);
    expect(afterFirst).toContainEqual([LAKEVIEW_ADMIN, 'notification', 'Next bill soon']);
    expect(afterFirst.filter(([to]) => to === ADMIN)).toEqual([]);
    // The digest of 2026-11-29 goes out the next morning, once.
    const digests = mails().filter((m) => m.tag === 'notification-digest' && m.to === ADMIN);
    expect(digests.map((m) => m.subject)).toEqual(['Your notifications for 2026-11-29 (1)']);
    expect(digests[0]!.text).toContain('Next bill soon');
    expect(digests[0]!.text).toContain('The bill for 2026-11 is issued on 2026-12-01');
    expect(again.digests).toBe(0);
    // The bell had it at once.
    const bell = await h.call('GET', '/api/notifications', { as: ADMIN });
    expect(bell.body.items.filter((n: { type: string }) => n.type === 'BILL_UPCOMING')).toHaveLength(1);
  });
});
