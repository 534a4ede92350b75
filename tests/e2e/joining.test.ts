import { describe, expect, it } from 'vitest';
import { apiFetch, signIn } from '#tests/helpers/local-stack.ts';
import { signInThroughSite, useSiteInBrowser } from './browser.ts';

/**
 * Joining in a browser (docs/local-twin.md#mail): an invitation's e-mail is opened on the twin's mail page, its link
 * followed, the invitee accepts with a name and password and lands signed in; then forgets the password and resets it
 * with the code Cognito sent to the same mail page.
 */
describe('joining a hospital in the browser', () => {
  const site = useSiteInBrowser();

  it('opens the invitation on /_mail, accepts it, signs in, and resets a forgotten password', async () => {
    // Prepare: a hospital admin invites (the Invitation Center calls the same route).
    const { page } = site.browser;
    const url = site.stack.url;
    const email = `casey.${Date.now()}@northside.demo.local`;
    const admin = await signIn(url, 'admin@northside.demo.local');
    const sent = await apiFetch(url, admin, '/api/invitations', {
      method: 'POST',
      body: {
        fullName: 'Casey Joiner',
        email,
        role: 'team_member',
        departmentId: 'dept-northside-radiology',
        teamId: 'team-northside-neuroradiology',
      },
    });
    expect(sent.status).toBe(201);

    // Act: open the mail page, the message, and follow its link.
    await page.goto(`${url}/_mail`);
    await page
      .getByRole('link', { name: /You're invited to join Northside General/ })
      .first()
      .click();
    const body = (await page.locator('pre').textContent()) ?? '';
    const link = /http:\/\/\S+\/invitations\/accept\?token=\S+/.exec(body)![0];
    await page.goto(link);
    await page.getByRole('heading', { name: 'Join Northside General' }).waitFor();
    const shown = await page.locator('form').textContent();
    await page.locator('input[name="firstName"]').fill('Casey');
    await page.locator('input[name="lastName"]').fill('Joiner');
    await page.locator('input[name="password"]').fill('short');
    await page.getByRole('button', { name: 'Accept Invitation' }).click();
    const policyMessage = await page.getByText('Password must be at least 12 characters').textContent();
    await page.locator('input[name="password"]').fill('Joining-Pass-2026!');
    await page.getByRole('button', { name: 'Accept Invitation' }).click();
    await page.waitForURL(/\/dashboard$/, { timeout: 30_000 });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login$/);

    // The used link is refused with the catalogue's words.
    await page.goto(link);
    await page.getByText('This invitation has already been used.').waitFor();

    // Forgot password: the code arrives on the mail page.
    await page.goto(`${url}/login`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(/\/forgot-password$/);
    await page.locator('input[name="email"]').fill(email);
    await page.getByRole('button', { name: 'Send Reset Code' }).click();
    await page.locator('input[name="code"]').waitFor();
    const mail = (await (await fetch(`${url}/_mail/messages.json`)).json()) as {
      items: { to: string; tag: string; text: string }[];
    };
    const code = /\b(\d{6})\b/.exec(mail.items.find((m) => m.to === email && m.tag === 'password-reset')!.text)![1]!;
    await page.locator('input[name="code"]').fill(code);
    await page.locator('input[name="newPassword"]').fill('Joining-Pass-2027!');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.waitForURL(/\/login$/);
    await signInThroughSite(page, url, email, 'Joining-Pass-2027!');

    // Assess
    expect(shown).toContain('Neuroradiology');
    expect(shown).toContain('Team Member');
    expect(policyMessage).toBe('Password must be at least 12 characters');
    expect(page.url()).toMatch(/\/dashboard$/);
  }, 180_000);
});
