import { describe, expect, it } from 'vitest';
import { getMe } from '#shared/domain/auth/get-me.ts';
import { caller, ports } from '#tests/unit/domain/fakes.ts';

describe('users with two-factor (docs/domain.md#oversight-figures)', () => {
  it('records the first session signed in with a second factor, once, and not one without', async () => {
    const p = ports();
    const member = caller('TEAM_MEMBER');
    await p.directory.putHospital({ id: 'h1', slug: 'h1', name: 'Northside General', createdAt: '', updatedAt: '' });
    await p.directory.putUser({
      id: member.userId,
      email: member.email,
      firstName: 'Pat',
      lastName: 'Member',
      role: 'TEAM_MEMBER',
      status: 'ACTIVE',
      hospitalId: 'h1',
      teamId: null,
      permissions: [],
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    const twoFactorUsers = () => p.org.hospitals.get('h1')?.twoFactorUserCount ?? 0;
    await getMe({ ...member, teamId: null, secondFactor: false }, p);
    expect((await p.directory.getUser('h1', member.userId))?.twoFactorSince).toBeUndefined();
    expect(twoFactorUsers()).toBe(0);
    await getMe({ ...member, teamId: null, secondFactor: true }, p);
    const first = (await p.directory.getUser('h1', member.userId))?.twoFactorSince;
    expect(first).toBe(p.clock.now());
    // The hospital's ACTIVE users with two-factor (the compliance center's figure) count them once.
    expect(twoFactorUsers()).toBe(1);
    await getMe(
      { ...member, teamId: null, secondFactor: true },
      { ...p, clock: { now: () => '2027-01-01T00:00:00.000Z' } },
    );
    expect((await p.directory.getUser('h1', member.userId))?.twoFactorSince).toBe(first);
    expect(twoFactorUsers()).toBe(1);
  });
});
