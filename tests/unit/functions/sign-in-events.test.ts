import type { PreAuthenticationTriggerEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { signInEvents } from '#functions/triggers/sign-in-events.ts';
import type { AuditEntry } from '#shared/domain/ports.ts';
import type { UsageDeltas } from '#shared/domain/organisation/ports.ts';
import { createMemorySsoStore } from '#functions/adapters/memory/sso-store.ts';
import { SSO_ONLY_MESSAGE } from '#shared/domain/settings/sso.ts';
import type { SsoSettings } from '#shared/schemas/api/sso.ts';

const event = (triggerSource: string, attributes: Record<string, string>) =>
  ({
    version: '1',
    region: 'eu-west-1',
    userPoolId: 'eu-west-1_x',
    userName: 'u1',
    triggerSource,
    callerContext: { awsSdkVersion: '3', clientId: 'c' },
    request: { userAttributes: attributes },
    response: {},
  }) as unknown as PreAuthenticationTriggerEvent;

describe("the user pool's sign-in triggers (docs/domain.md#failed-sign-ins)", () => {
  it("count an attempt before the password is checked and a success after, on the user's hospital and day", async () => {
    // Prepare
    const added: [string, string, string, UsageDeltas][] = [];
    const recorded: AuditEntry[] = [];
    const trigger = signInEvents(
      async () => ({
        organisation: { addUsage: async (...args) => void added.push(args) },
        audit: { record: async (entry) => void recorded.push(entry) },
        directory: { getUser: async () => ({ firstName: 'Ada', lastName: 'Lee', role: 'TEAM_LEAD' }) as never },
        sso: createMemorySsoStore(),
      }),
      () => new Date('2026-11-25T08:00:00.000Z'),
    );
    const user = { 'custom:hospitalId': 'h1', sub: 'u1' };

    // Act
    const answered = await trigger(event('PreAuthentication_Authentication', user));
    await trigger(event('PostAuthentication_Authentication', user));
    await trigger(event('PreAuthentication_Authentication', {}));

    // Assess: the event goes back as it came (the sign-in goes on); a user with no hospital is not counted.
    expect(answered.response).toEqual({});
    expect(added).toEqual([
      ['h1', 'hospital', '2026-11-25', { signInAttempts: 1 }],
      ['h1', 'hospital', '2026-11-25', { signIns: 1 }],
    ]);
    // The success, and only it, is one event of the audit trail.
    expect(recorded).toEqual([
      {
        hospitalId: 'h1',
        action: 'USER_SIGNED_IN',
        actorUserId: 'u1',
        actorName: 'Ada Lee',
        at: '2026-11-25T08:00:00.000Z',
        details: { method: 'password', role: 'TEAM_LEAD' },
      },
    ]);
  });

  it('never refuse a sign-in because counting failed', async () => {
    // Prepare
    const trigger = signInEvents(async () => ({
      organisation: {
        addUsage: async () => {
          throw new Error('table unavailable');
        },
      },
      audit: { record: async () => undefined },
      directory: { getUser: async () => undefined },
      sso: createMemorySsoStore(),
    }));

    // Act + Assess
    await expect(
      trigger(event('PreAuthentication_Authentication', { 'custom:hospitalId': 'h1' })),
    ).resolves.toMatchObject({ userName: 'u1' });
  });

  it('refuse a password sign-in of a domain whose hospital chose "SSO only", and only that one', async () => {
    // Prepare: Northside signs in through its provider only; Southside has single sign-on on without "SSO only".
    const sso = createMemorySsoStore();
    const config = (hospitalId: string, domain: string, ssoOnly: boolean): SsoSettings => ({
      issuer: 'https://idp.example.org',
      clientId: 'client',
      domains: [domain],
      groupsClaim: 'groups',
      roleMappings: [],
      enabled: true,
      ssoOnly,
      providerName: `oidc-${hospitalId}`,
      updatedAt: '2026-11-25T08:00:00.000Z',
      updatedByUserId: 'admin',
    });
    await sso.save('h1', config('h1', 'northside.demo.local', true));
    await sso.save('h2', config('h2', 'southside.demo.local', false));
    const trigger = signInEvents(async () => ({
      organisation: { addUsage: async () => undefined },
      audit: { record: async () => undefined },
      directory: { getUser: async () => undefined },
      sso,
    }));

    // Act + Assess
    await expect(
      trigger(
        event('PreAuthentication_Authentication', { email: 'member@northside.demo.local', 'custom:hospitalId': 'h1' }),
      ),
    ).rejects.toThrow(SSO_ONLY_MESSAGE);
    await expect(
      trigger(
        event('PreAuthentication_Authentication', { email: 'member@southside.demo.local', 'custom:hospitalId': 'h2' }),
      ),
    ).resolves.toMatchObject({ userName: 'u1' });
    // A claimed domain is no proof of ownership: a user of another hospital, or the super admin, is never locked out.
    await expect(
      trigger(
        event('PreAuthentication_Authentication', { email: 'visitor@northside.demo.local', 'custom:hospitalId': 'h2' }),
      ),
    ).resolves.toMatchObject({ userName: 'u1' });
    await expect(
      trigger(event('PreAuthentication_Authentication', { email: 'root@northside.demo.local' })),
    ).resolves.toMatchObject({ userName: 'u1' });
    await expect(
      trigger(event('PreAuthentication_Authentication', { email: 'someone@elsewhere.demo.local' })),
    ).resolves.toMatchObject({ userName: 'u1' });
  });
});
