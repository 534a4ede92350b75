import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiFetch, signIn, startTestStack, type TestStack } from '#tests/helpers/local-stack.ts';

/**
 * The organisation through the local twin, with its Cognito stand-in: deleting a hospital disables its users'
 * identities (no sign-in) and the API refuses tokens they already hold; restoring brings both back. A role change
 * makes the old token useless at once and the next sign-in carries the new group.
 */
let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
}, 120_000);

afterAll(async () => {
  await stack?.dispose();
});

const call = async (token: string, path: string, init: { method?: string; body?: unknown } = {}) => {
  const response = await apiFetch(stack.url, token, path, init);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
};

describe('organisation through the local twin', () => {
  it('deactivates a hospital: its admin can no longer sign in and held tokens are refused; restore undoes it', async () => {
    // Prepare
    const superAdmin = await signIn(stack.url, 'superadmin@demo.local');
    const held = await signIn(stack.url, 'lead@lakeview.demo.local');
    expect((await call(held, '/api/me')).status).toBe(200);

    // Act
    const deleted = await call(superAdmin, '/api/hospitals/hosp-lakeview', {
      method: 'DELETE',
      body: { confirmName: 'Lakeview Medical Center', acknowledgeImpact: true },
    });

    // Assess
    expect(deleted.status).toBe(200);
    expect(deleted.body.status).toBe('DEACTIVATED');
    await expect(signIn(stack.url, 'admin@lakeview.demo.local')).rejects.toThrow('Invalid credentials');
    const refused = await call(held, '/api/me');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('HOSPITAL_DEACTIVATED');

    const restored = await call(superAdmin, '/api/hospitals/hosp-lakeview/restore', { method: 'POST' });
    expect(restored.body.status).toBe('ACTIVE');
    const again = await signIn(stack.url, 'admin@lakeview.demo.local');
    expect((await call(again, '/api/me')).status).toBe(200);
  }, 60_000);

  it('changes a role in the pool and the record: the old token stops, a new sign-in carries the new role', async () => {
    const admin = await signIn(stack.url, 'admin@northside.demo.local');
    const old = await signIn(stack.url, 'guest@northside.demo.local');
    const me = (await call(old, '/api/me')).body.user;

    const changed = await call(admin, `/api/users/${me.id}/role`, { method: 'PATCH', body: { role: 'TEAM_MEMBER' } });
    expect(changed.status).toBe(200);
    expect(changed.body.role).toBe('TEAM_MEMBER');

    expect((await call(old, '/api/me')).status).toBe(403);
    const fresh = await signIn(stack.url, 'guest@northside.demo.local');
    const now = await call(fresh, '/api/me');
    expect(now.status).toBe(200);
    expect(now.body.user.role).toBe('TEAM_MEMBER');

    expect((await call(admin, `/api/users/${me.id}/role`, { method: 'PATCH', body: { role: 'GUEST' } })).status).toBe(
      200,
    );
  }, 60_000);
});
