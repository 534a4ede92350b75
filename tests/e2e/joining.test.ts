import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiFetch, signIn } from '#tests/helpers/local-stack.ts';
import { signInThroughSite, useSiteInBrowser } from './browser.ts';

/**
 * Joining in a browser (docs/local-twin.md#mail): an invitation's e-mail is opened on the twin's mail page, its link
 * followed, the invitee accepts with a name and password and lands signed in; then forgets the password and resets it
 * with the code Cognito sent to the same mail page.
 */
/** RFC 6238 TOTP (SHA-1, 30 s, 6 digits) over a base32 (RFC 4648) key, as an authenticator app computes it. */
function totp(secret: string, at = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of secret.replace(/=+$/, '').toUpperCase())
    bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

describe('joining a hospital in the browser', () => {
  const site = useSiteInBrowser();

  it('opens the invitation on /_mail, accepts it, signs in, resets a forgotten password, and turns on two-factor', async () => {
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

    // Two-factor: enrol with the key, then sign in again with a code.
    await page.goto(`${url}/account/security`);
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    const enrolledAt = Date.now();
    await page.locator('input[name="totpSetupCode"]').fill(totp(secret, enrolledAt));
    await page.getByRole('button', { name: 'Verify and turn on' }).click();
    await page.getByText('Two-factor authentication is on.').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login$/);
    await page.getByLabel('Email').fill(email);
    await page.locator('input[name="password"]').fill('Joining-Pass-2027!');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.locator('input[name="totpCode"]').waitFor();
    // A code is good once: wait for the next 30-second step when enrolment used this one.
    const step = (t: number) => Math.floor(t / 30_000);
    if (step(Date.now()) === step(enrolledAt))
      await new Promise((resolve) => setTimeout(resolve, 30_000 - (Date.now() % 30_000) + 500));
    await page.locator('input[name="totpCode"]').fill(totp(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(/\/dashboard$/, { timeout: 30_000 });

    // Assess
    expect(shown).toContain('Neuroradiology');
    expect(shown).toContain('Team Member');
    expect(policyMessage).toBe('Password must be at least 12 characters');
    expect(page.url()).toMatch(/\/dashboard$/);
  }, 240_000);
});
