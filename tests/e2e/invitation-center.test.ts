import { DynamoDBClient, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '#shared/definitions/table/keys.ts';
import { LOCAL_TABLE_NAME } from '#infra/local/stack.ts';
import { objectStoreCredentials } from '#infra/local/s3.ts';
import { apiFetch, signIn, TEST_DEMO_PASSWORD } from '#tests/helpers/local-stack.ts';
import type { Page } from 'playwright-core';
import { signInThroughSite, useSiteInBrowser } from './browser.ts';

/**
 * The Invitation Center and the team's Invitations tab in a browser (docs/screens.md#invitation-center): a hospital
 * admin sends a CSV of 50 rows with a quoted comma, one duplicate and one bad e-mail; a lead resends and cancels; an
 * expired link is refused with the catalogue's words.
 */
const HOSPITAL = 'hosp-northside';
const stamp = Date.now().toString(36);
const emailOf = (n: number) => `bulk.${stamp}.${n}@northside.demo.local`;

/** 50 rows: row 1 has a comma inside a quoted name, row 30 repeats row 3's e-mail (in other case), row 40 is bad. */
function fiftyRowCsv(): string {
  const lines = ['Name,Email,Role,Department,Team'];
  for (let n = 1; n <= 50; n++) {
    const name = n === 1 ? '"Lee, Robin"' : `Invitee ${n}`;
    const email = n === 30 ? emailOf(3).toUpperCase() : n === 40 ? 'not-an-email' : emailOf(n);
    lines.push(`${name},${email},team_member,,`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

type Mail = { to: string; subject: string; text: string };
async function mailbox(url: string): Promise<Mail[]> {
  return ((await (await fetch(`${url}/_mail/messages.json`)).json()) as { items: Mail[] }).items;
}

describe('the Invitation Center in the browser', () => {
  const site = useSiteInBrowser();
  /** Each test starts signed out, whatever the one before it left behind. */
  const signInFresh = async (page: Page, email: string) => {
    await page.goto(`${site.stack.url}/home`);
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    await signInThroughSite(page, site.stack.url, email, TEST_DEMO_PASSWORD);
  };

  it('sends a CSV of 50 after its duplicate and bad e-mail are shown and removed', async () => {
    const { page } = site.browser;
    const url = site.stack.url;
    await signInFresh(page, 'admin@northside.demo.local');
    await page.goto(`${url}/hospital-admin/invitations`);
    await page.getByRole('tab', { name: 'Bulk Invitations' }).click();

    await page.getByTestId('csv-input').setInputFiles({
      name: 'staff.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`\ufeff${fiftyRowCsv()}`),
    });
    await page.getByLabel('Full name, row 50', { exact: true }).waitFor();
    // The quoted comma stays inside the name.
    expect(await page.getByLabel('Full name, row 1', { exact: true }).inputValue()).toBe('Lee, Robin');
    await page.getByRole('button', { name: 'Validate All' }).click();
    await page.getByText(/Duplicate email \(row \d+\)/).waitFor();
    await page.getByText('Invalid email format').waitFor();
    expect(await page.getByRole('button', { name: /^Send \d+ Invites$/ }).isDisabled()).toBe(true);

    // Remove the bad row, then the duplicate (rows after a removed one move up).
    await page.getByLabel('Remove row 40', { exact: true }).click();
    await page.getByLabel('Remove row 30', { exact: true }).click();
    await page.getByRole('button', { name: 'Validate All' }).click();
    const send = page.getByRole('button', { name: 'Send 48 Invites' });
    await send.waitFor();
    expect(await send.isDisabled()).toBe(false);
    await send.click();
    await page.getByText('Bulk Invitations Sent Successfully!').waitFor({ timeout: 30_000 });
    await page.getByText('48 invitation(s) sent successfully').waitFor();

    const sentTo = new Set((await mailbox(url)).map((m) => m.to));
    expect([1, 2, 3, 29, 31, 39, 41, 50].every((n) => sentTo.has(emailOf(n)))).toBe(true);
    expect(sentTo.has('not-an-email')).toBe(false);

    await page.getByRole('tab', { name: /^Pending \(\d+\)$/ }).click();
    await page.getByText(emailOf(1)).waitFor();
  }, 180_000);

  it("lets the team's lead resend (the old link stops working) and cancel", async () => {
    const { page } = site.browser;
    const url = site.stack.url;
    await signInFresh(page, 'lead@northside.demo.local');
    await page.goto(`${url}/teams`);
    await page.getByRole('tab', { name: 'Invitations' }).click();
    await page.getByRole('button', { name: 'Invite Team Member' }).click();
    const email = `kim.${stamp}@northside.demo.local`;
    const form = page.getByRole('form', { name: 'Invite team member' });
    await form.getByLabel('Email').fill(email);
    await form.getByRole('button', { name: 'Send Invitation' }).click();
    const row = page.getByRole('row').filter({ hasText: email });
    await row.waitFor();
    const firstLink = linkIn((await mailbox(url)).find((m) => m.to === email)!);

    await row.getByRole('button', { name: 'Resend' }).click();
    await expect.poll(async () => (await mailbox(url)).filter((m) => m.to === email).length).toBe(2);
    expect((await apiFetch(url, undefined, `/api/invitations/preview?token=${tokenOf(firstLink)}`)).status).toBe(404);

    await row.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(async () => (await row.textContent()) ?? '').toContain('CANCELLED');
    const latest = linkIn((await mailbox(url)).filter((m) => m.to === email)[0]!);
    await page.goto(latest);
    await page.getByText('This invitation has been cancelled.').waitFor();
  }, 120_000);

  it('refuses an expired link with the catalogue words', async () => {
    const { page } = site.browser;
    const url = site.stack.url;
    const admin = await signIn(url, 'admin@northside.demo.local');
    const email = `late.${stamp}@northside.demo.local`;
    const sent = await apiFetch(url, admin, '/api/invitations', {
      method: 'POST',
      body: { fullName: 'Late Invitee', email, role: 'guest' },
    });
    expect(sent.status).toBe(201);
    const { id } = (await sent.json()) as { id: string };
    // Eight days pass for this invitation: its expiry moves into the past in the twin's table.
    const table = new DynamoDBClient({
      endpoint: `${url}/_aws/dynamodb`,
      region: 'us-east-1',
      credentials: objectStoreCredentials(site.stack.dataDir),
    });
    await table.send(
      new UpdateItemCommand({
        TableName: LOCAL_TABLE_NAME,
        Key: Object.fromEntries(Object.entries(keys.invitation(HOSPITAL, id)).map(([k, v]) => [k, { S: v }])),
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': { S: new Date(Date.now() - 86_400_000).toISOString() } },
      }),
    );
    await page.goto(linkIn((await mailbox(url)).find((m) => m.to === email)!));
    await page.getByText('This invitation has expired. Ask your administrator to send a new one.').waitFor();
  }, 60_000);
});

function linkIn(mail: Mail): string {
  return /https?:\/\/\S+\/invitations\/accept\?token=\S+/.exec(mail.text)![0];
}
function tokenOf(link: string): string {
  return new URL(link).searchParams.get('token')!;
}
