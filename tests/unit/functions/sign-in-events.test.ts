import type { PreAuthenticationTriggerEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { signInEvents } from '#functions/triggers/sign-in-events.ts';
import type { UsageDeltas } from '#shared/domain/organisation/ports.ts';

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
    const trigger = signInEvents(
      async () => ({ addUsage: async (...args) => void added.push(args) }),
      () => new Date('2026-11-25T08:00:00.000Z'),
    );

    // Act
    const answered = await trigger(event('PreAuthentication_Authentication', { 'custom:hospitalId': 'h1' }));
    await trigger(event('PostAuthentication_Authentication', { 'custom:hospitalId': 'h1' }));
    await trigger(event('PreAuthentication_Authentication', {}));

    // Assess: the event goes back as it came (the sign-in goes on); a user with no hospital is not counted.
    expect(answered.response).toEqual({});
    expect(added).toEqual([
      ['h1', 'hospital', '2026-11-25', { signInAttempts: 1 }],
      ['h1', 'hospital', '2026-11-25', { signIns: 1 }],
    ]);
  });

  it('never refuse a sign-in because counting failed', async () => {
    // Prepare
    const trigger = signInEvents(async () => ({
      addUsage: async () => {
        throw new Error('table unavailable');
      },
    }));

    // Act + Assess
    await expect(
      trigger(event('PreAuthentication_Authentication', { 'custom:hospitalId': 'h1' })),
    ).resolves.toMatchObject({ userName: 'u1' });
  });
});
