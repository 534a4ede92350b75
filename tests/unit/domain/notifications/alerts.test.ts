import { describe, expect, it } from 'vitest';
import { noteSignInForAlerts } from '#shared/domain/notifications/alerts.ts';
import { BYTES_PER_GB, notifyThresholds } from '#shared/domain/settings/enforce.ts';
import { createDicomWebClient, revokeIntegration } from '#shared/domain/integrations/manage-integrations.ts';
import type { MailMessage } from '#shared/domain/invitations/ports.ts';
import { DEFAULT_HOSPITAL_POLICY, type Policy } from '#shared/schemas/api/policies.ts';
import { caller, ports } from '#tests/unit/domain/fakes.ts';

const capped = (gb: number): Policy => ({
  ...DEFAULT_HOSPITAL_POLICY,
  storageCompute: { ...DEFAULT_HOSPITAL_POLICY.storageCompute, storageCapGB: gb },
});

async function world(now: { at: string }) {
  const p = ports();
  const mailbox: MailMessage[] = [];
  for (const id of ['a1', 'a2'])
    await p.directory.putUser({
      id,
      hospitalId: 'h1',
      email: `${id}@northside.test`,
      firstName: id,
      lastName: 'Admin',
      role: 'HOSPITAL_ADMIN',
      status: 'ACTIVE',
      teamId: null,
      permissions: [],
      createdAt: 'x',
    });
  for (const id of ['a1', 'a2']) {
    await p.settings.updateUserProfile('h1', id, { firstName: id, lastName: 'Admin' });
    p.settings.profiles.get(`h1/${id}`)!.email = `${id}@northside.test`;
  }
  return {
    p,
    mailbox,
    deps: {
      ...p,
      mailer: { send: async (m: MailMessage) => void mailbox.push(m) },
      siteOrigin: 'https://imaging.example.test',
      clock: { now: () => now.at },
    },
  };
}

describe('billing alert: storage thresholds (docs/domain.md#billing-alerts)', () => {
  it('raises each of 80%, 90% and 100% of the cap once a month, by e-mail too', async () => {
    // Arrange
    const now = { at: '2026-11-10T09:00:00.000Z' };
    const w = await world(now);
    const policy = capped(10);
    const gb = (n: number) => n * BYTES_PER_GB;

    // Act: up to 85%, down to 70% and up again, then over 90% and to the cap; next month over 80% again.
    const raised = [
      await notifyThresholds('h1', gb(7), gb(8.5), policy, w.deps),
      await notifyThresholds('h1', gb(7), gb(8.2), policy, w.deps),
      await notifyThresholds('h1', gb(8.5), gb(9.2), policy, w.deps),
      await notifyThresholds('h1', gb(9.2), gb(10), policy, w.deps),
    ];
    now.at = '2026-12-01T09:00:00.000Z';
    raised.push(await notifyThresholds('h1', gb(7), gb(8.1), policy, w.deps));

    // Assert
    expect(raised).toEqual(['STORAGE_WARNING', undefined, 'STORAGE_CRITICAL', 'STORAGE_CRITICAL', 'STORAGE_WARNING']);
    const a1 = w.p.notifications.items.filter((n) => n.userId === 'a1');
    expect(a1.map((n) => [n.title, n.description])).toEqual([
      ['Storage warning', '85% of the storage cap of 10 GB is in use.'],
      ['Storage critical', '92% of the storage cap of 10 GB is in use.'],
      ['Storage full', '100% of the storage cap of 10 GB is in use.'],
      ['Storage warning', '81% of the storage cap of 10 GB is in use.'],
    ]);
    expect(w.mailbox.filter((m) => m.to === 'a1@northside.test').map((m) => m.subject)).toEqual([
      'Storage warning',
      'Storage critical',
      'Storage full',
      'Storage warning',
    ]);
  });

  it('claims the weaker thresholds with the strongest: a jump to 95% is not followed by an 80% alert', async () => {
    const now = { at: '2026-11-10T09:00:00.000Z' };
    const w = await world(now);
    const gb = (n: number) => n * BYTES_PER_GB;
    expect(await notifyThresholds('h1', gb(1), gb(9.5), capped(10), w.deps)).toBe('STORAGE_CRITICAL');
    expect(await notifyThresholds('h1', gb(7), gb(8.5), capped(10), w.deps)).toBeUndefined();
    expect(w.p.notifications.items.filter((n) => n.userId === 'a1')).toHaveLength(1);
  });
});

describe('security alerts (docs/domain.md#security-alerts)', () => {
  it('counts only attempts within 15 minutes towards a burst', async () => {
    const now = { at: '2026-11-10T09:00:00.000Z' };
    const w = await world(now);
    const at = (minute: number) => new Date(Date.parse('2026-11-10T09:00:00.000Z') + minute * 60_000).toISOString();
    const results: boolean[] = [];
    // Four attempts, a pause of 20 minutes, then five quick ones: only the fifth of those raises the alert.
    for (const minute of [0, 1, 2, 3, 23, 24, 25, 26, 27])
      results.push(await noteSignInForAlerts('attempt', 'h1', 'u9', at(minute), w.deps));
    expect(results).toEqual([false, false, false, false, false, false, false, false, true]);
    expect(w.p.notifications.items.map((n) => [n.userId, n.type])).toEqual([
      ['a1', 'FAILED_SIGN_INS'],
      ['a2', 'FAILED_SIGN_INS'],
    ]);
    expect(w.mailbox.map((m) => m.to)).toEqual(['a1@northside.test', 'a2@northside.test']);
  });

  it('alerts every hospital admin, the creator included, when a DICOMweb client is created and revoked', async () => {
    // Arrange
    const w = await world({ at: '2026-11-10T09:00:00.000Z' });
    const admin = caller('HOSPITAL_ADMIN', { userId: 'a1' });
    const endpoints = {
      dicomWebUrl: 'https://api.test/dicomweb',
      tokenUrl: 'https://auth.test/oauth2/token',
      calledAeTitle: 'IWS',
    };
    const deps = { ...w.deps, endpoints };

    // Act
    const { integration } = await createDicomWebClient({ name: 'PACS reader', scopes: ['read'] }, admin, deps);
    await revokeIntegration(integration.id, admin, deps);

    // Assert
    expect(w.p.notifications.items.map((n) => [n.userId, n.type, n.title])).toEqual([
      ['a1', 'ACCESS_TOKEN_CHANGED', 'DICOMweb client created'],
      ['a2', 'ACCESS_TOKEN_CHANGED', 'DICOMweb client created'],
      ['a1', 'ACCESS_TOKEN_CHANGED', 'DICOMweb client revoked'],
      ['a2', 'ACCESS_TOKEN_CHANGED', 'DICOMweb client revoked'],
    ]);
    // Ids only in the text: the client's free-text name is not repeated.
    expect(w.mailbox[0]!.text).toContain(integration.id);
    expect(w.mailbox.every((m) => !m.text.includes('PACS reader'))).toBe(true);
  });
});
