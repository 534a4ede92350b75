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

/** Polls a job (docs/jobs.md) until it ends; the twin's worker runs it after the 202. */
async function finished(token: string, jobId: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const job = await call(token, `/api/jobs/${jobId}`);
    expect(job.status).toBe(200);
    if (job.body.status === 'SUCCEEDED' || job.body.status === 'FAILED') {
      expect(job.body).toMatchObject({ status: 'SUCCEEDED', failed: 0 });
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`job ${jobId} did not finish`);
}

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
    expect(deleted.status).toBe(202);
    expect(deleted.body.status).toBe('DEACTIVATED');
    await finished(superAdmin, deleted.body.jobId);
    await expect(signIn(stack.url, 'admin@lakeview.demo.local')).rejects.toThrow('Invalid credentials');
    const refused = await call(held, '/api/me');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('HOSPITAL_DEACTIVATED');

    const restored = await call(superAdmin, '/api/hospitals/hosp-lakeview/restore', { method: 'POST' });
    expect(restored.body.status).toBe('ACTIVE');
    await finished(superAdmin, restored.body.jobId);
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
