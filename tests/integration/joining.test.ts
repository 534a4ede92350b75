import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiFetch, signIn, startTestStack, type TestStack } from '#tests/helpers/local-stack.ts';

/**
 * Joining through the local twin (docs/local-twin.md#mail): a hospital admin invites, the e-mail lands on the twin's
 * /_mail page, the invitee opens the link's token, accepts with a password under the pool's policy, and signs in
 * through the Cognito stand-in as an ACTIVE user of the right hospital, team and role.
 */
let stack: TestStack;
let admin: string;
let lead: string;

beforeAll(async () => {
  stack = await startTestStack();
  admin = await signIn(stack.url, 'admin@northside.demo.local');
  lead = await signIn(stack.url, 'lead@northside.demo.local');
}, 120_000);
afterAll(async () => {
  await stack?.dispose();
});

type Mail = { id: string; to: string; subject: string; text: string; html: string };
async function mailTo(email: string): Promise<Mail> {
  const response = await fetch(`${stack.url}/_mail/messages.json`);
  const { items } = (await response.json()) as { items: Mail[] };
  const found = items.find((m) => m.to === email);
  if (!found) throw new Error(`no mail to ${email}`);
  return found;
}
const tokenIn = (mail: Mail) => new URL(/https?:\/\/\S+/.exec(mail.text)![0]).searchParams.get('token')!;
const json = async (r: Response) => ({ status: r.status, body: await r.json() });

describe('joining a hospital through the twin', () => {
  it('invites, shows the e-mail on /_mail, accepts, and signs the new user in', async () => {
    const email = `robin.${Date.now()}@northside.demo.local`;
    const sent = await json(
      await apiFetch(stack.url, admin, '/api/invitations', {
        method: 'POST',
        body: {
          fullName: 'Robin Lee',
          email,
          role: 'team_member',
          departmentId: 'dept-northside-radiology',
          teamId: 'team-northside-neuroradiology',
        },
      }),
    );
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ listStatus: 'sent', team: 'Neuroradiology' });

    const mail = await mailTo(email);
    expect(mail.subject).toContain('Northside General');
    const page = await (await fetch(`${stack.url}/_mail/${mail.id}`)).text();
    expect(page).toContain('/invitations/accept?token=');
    const token = tokenIn(mail);

    const preview = await json(await apiFetch(stack.url, undefined, `/api/invitations/preview?token=${token}`));
    expect(preview.body).toMatchObject({
      hospitalName: 'Northside General',
      team: 'Neuroradiology',
      role: 'TEAM_MEMBER',
    });

    const accept = async (password: string) =>
      json(
        await apiFetch(stack.url, undefined, '/api/invitations/accept', {
          method: 'POST',
          body: { token, firstName: 'Robin', lastName: 'Lee', password },
        }),
      );
    const weak = await accept('short');
    expect(weak.status).toBe(400);

    const password = 'Joining-Pass-2026!';
    const accepted = await accept(password);
    expect(accepted).toEqual({ status: 200, body: { email, hospitalName: 'Northside General' } });

    const idToken = await signIn(stack.url, email, password);
    const me = await json(await apiFetch(stack.url, idToken, '/api/me'));
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({
      email,
      role: 'TEAM_MEMBER',
      status: 'ACTIVE',
      hospitalId: 'hosp-northside',
      teamId: 'team-northside-neuroradiology',
    });

    const again = await accept(password);
    expect(again.status).toBe(410);
    expect(again.body.error.message).toBe('This invitation has already been used.');
  }, 120_000);

  it("sends a new hospital's first admin an invitation, which makes them its active hospital admin", async () => {
    const superAdmin = await signIn(stack.url, 'superadmin@demo.local');
    const stamp = Date.now();
    const email = `first.admin.${stamp}@riverside.test`;
    const created = await json(
      await apiFetch(stack.url, superAdmin, '/api/hospitals', {
        method: 'POST',
        body: {
          name: `Riverside Clinic ${stamp}`,
          email: 'contact@riverside.test',
          phone: '+1 555 010 0200',
          addressLine1: '1 River Road',
          city: 'Springfield',
          state: 'IL',
          subscriptionPlan: 'BASIC',
          adminFirstName: 'Dana',
          adminLastName: 'Reyes',
          adminEmail: email,
        },
      }),
    );
    expect(created.status).toBe(201);

    const mail = await mailTo(email);
    expect(mail.subject).toContain(`Riverside Clinic ${stamp}`);
    const token = tokenIn(mail);
    const preview = await json(await apiFetch(stack.url, undefined, `/api/invitations/preview?token=${token}`));
    expect(preview.body).toMatchObject({ hospitalName: `Riverside Clinic ${stamp}`, role: 'HOSPITAL_ADMIN' });

    const password = 'First-Admin-2026!';
    const accepted = await apiFetch(stack.url, undefined, '/api/invitations/accept', {
      method: 'POST',
      body: { token, firstName: 'Dana', lastName: 'Reyes', password },
    });
    expect(accepted.status).toBe(200);
    const admin = await signIn(stack.url, email, password);
    const me = await json(await apiFetch(stack.url, admin, '/api/me'));
    expect(me.body.user).toMatchObject({
      email,
      role: 'HOSPITAL_ADMIN',
      status: 'ACTIVE',
      hospitalId: created.body.id,
    });
    // One user in the hospital, not two: the INVITED record became the active one.
    const users = await json(await apiFetch(stack.url, admin, '/api/users'));
    expect(users.body.items.map((u: { email: string }) => u.email)).toEqual([email]);
  }, 120_000);

  it('lets the lead resend (new link, old one refused) and cancel a team invitation', async () => {
    const email = `kim.${Date.now()}@northside.demo.local`;
    const sent = await json(
      await apiFetch(stack.url, lead, '/api/teams/team-northside-neuroradiology/invitations', {
        method: 'POST',
        body: { email, role: 'GUEST', permissions: ['VIEW_DATASETS'], expiresInDays: 3 },
      }),
    );
    expect(sent.status).toBe(201);
    const first = tokenIn(await mailTo(email));
    const resent = await apiFetch(
      stack.url,
      lead,
      `/api/teams/team-northside-neuroradiology/invitations/${sent.body.id}/resend`,
      { method: 'POST' },
    );
    expect(resent.status).toBe(200);
    expect((await apiFetch(stack.url, undefined, `/api/invitations/preview?token=${first}`)).status).toBe(404);
    const cancelled = await apiFetch(
      stack.url,
      lead,
      `/api/teams/team-northside-neuroradiology/invitations/${sent.body.id}`,
      { method: 'DELETE' },
    );
    expect(cancelled.status).toBe(200);
    const latest = tokenIn(await mailTo(email));
    const refused = await json(await apiFetch(stack.url, undefined, `/api/invitations/preview?token=${latest}`));
    expect(refused.body.error.message).toBe('This invitation has been cancelled.');
  }, 60_000);
});

// The security alert of docs/domain.md#security-alerts, end to end on the twin: the user pool's stand-in runs the
// sign-in trigger on each password attempt, and the alert is delivered through the twin's SES to /_mail.
describe('a security alert on the twin', () => {
  it('shows a hospital admin who chose e-mail the alert on /_mail after five failed sign-ins of a user', async () => {
    // Arrange: the admin keeps security events on, by e-mail.
    const preferences = await json(await apiFetch(stack.url, admin, '/api/me/notification-preferences'));
    const saved = await apiFetch(stack.url, admin, '/api/me/notification-preferences', {
      method: 'PUT',
      body: { ...preferences.body, email: true, securityEvents: true },
    });
    expect(saved.status).toBe(200);
    const alerts = async () => {
      const { items } = (await (await fetch(`${stack.url}/_mail/messages.json`)).json()) as { items: Mail[] };
      return items.filter((m) => m.to === 'admin@northside.demo.local' && m.subject === 'Repeated failed sign-ins');
    };

    // Act: five password sign-ins of the member, each with a wrong password.
    for (let i = 0; i < 5; i++)
      await expect(signIn(stack.url, 'member@northside.demo.local', `Wrong-password-${i}!`)).rejects.toThrow();

    // Assert: one alert, shown on the mail page, naming no password and linking the compliance center.
    const found = await alerts();
    expect(found).toHaveLength(1);
    const page = await (await fetch(`${stack.url}/_mail/${found[0]!.id}`)).text();
    expect(page).toContain('Repeated failed sign-ins');
    expect(page).toContain('/hospital-admin/compliance');
    expect(page).not.toContain('Wrong-password');
  }, 60_000);
});
