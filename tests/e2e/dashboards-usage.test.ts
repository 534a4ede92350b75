import { describe, expect, it } from 'vitest';
import type { Compliance } from '#shared/schemas/api/oversight.ts';
import type { Dashboard } from '#shared/schemas/api/dashboard.ts';
import type { Usage } from '#shared/schemas/api/usage.ts';
import { newDatasetBody } from '#tests/helpers/datasets.ts';
import { apiFetch, signIn, TEST_DEMO_PASSWORD } from '#tests/helpers/local-stack.ts';
import { outputPath, signInThroughSite, useSiteInBrowser } from './browser.ts';

/**
 * Dashboards, Usage & Billing and the compliance center's failed sign-ins in the browser (docs/screens.md#dashboard,
 * docs/screens.md#usage-and-billing, docs/domain.md#failed-sign-ins): what each page shows is what the server
 * computed from the twin's data, and it moves when the data does.
 */
describe('dashboards, usage and failed sign-ins', () => {
  const site = useSiteInBrowser();
  const json = async <T>(response: Response): Promise<T> => {
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };
  const cards = () =>
    site.browser.page
      .getByTestId('stat-card')
      .evaluateAll((nodes) => nodes.map((n) => [n.children[0]?.textContent, n.children[1]?.textContent]));

  it("shows the server's figures on a team lead's dashboard, and a new dataset moves them", async () => {
    // Prepare
    const { page } = site.browser;
    const url = site.stack.url;
    const lead = await signIn(url, 'lead@northside.demo.local');
    const before = await json<Dashboard>(await apiFetch(url, lead, '/api/dashboard'));
    await signInThroughSite(page, url, 'lead@northside.demo.local', TEST_DEMO_PASSWORD);
    await page.goto(`${url}/dashboard`);
    await page.getByTestId('stat-card').first().waitFor();
    const shownBefore = await cards();

    // Act: a member of the team creates a dataset.
    const member = await signIn(url, 'member@northside.demo.local');
    expect((await apiFetch(url, member, '/api/datasets', { method: 'POST', body: newDatasetBody() })).status).toBe(201);
    const after = await json<Dashboard>(await apiFetch(url, lead, '/api/dashboard'));
    await page.reload();
    await page.getByTestId('stat-card').first().waitFor();
    const shownAfter = await cards();
    await page.screenshot({ path: outputPath('dashboard-team-lead.png'), fullPage: true });

    // Assess: the cards are the server's, in its order, and the active-dataset figure moved by one.
    expect(shownBefore.map(([label]) => label)).toEqual(before.stats.map((s) => s.label));
    const value = (stats: Dashboard['stats'], label: string) => stats.find((s) => s.label === label)?.value;
    const moved = after.stats.filter((s) => value(before.stats, s.label) !== s.value);
    expect(moved.length).toBeGreaterThan(0);
    for (const stat of moved) {
      expect(shownAfter.find(([label]) => label === stat.label)?.[1]).toBe(stat.value.toLocaleString('en-US'));
      expect(shownBefore.find(([label]) => label === stat.label)?.[1]).toBe(
        value(before.stats, stat.label)!.toLocaleString('en-US'),
      );
    }
  });

  it("shows a super admin every hospital's performance row from the server", async () => {
    // Prepare
    const { page } = site.browser;
    const url = site.stack.url;
    const token = await signIn(url, 'superadmin@demo.local');
    const figures = await json<Dashboard>(await apiFetch(url, token, '/api/dashboard'));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login$/);
    await signInThroughSite(page, url, 'superadmin@demo.local', TEST_DEMO_PASSWORD);

    // Act
    await page.goto(`${url}/dashboard`);
    const table = page.getByRole('table', { name: 'Hospital performance' });
    await table.waitFor();
    const rows = await table.locator('tbody tr').count();
    const shown = await cards();

    // Assess
    expect(rows).toBe(figures.hospitals.length);
    expect(rows).toBeGreaterThanOrEqual(2);
    expect(shown.map(([label]) => label)).toEqual(figures.stats.map((s) => s.label));
  });

  it('shows a hospital admin the usage meters and next bill the server metered, and counts a wrong password as a failed sign-in', async () => {
    // Prepare: a wrong password through the sign-in page.
    const { page } = site.browser;
    const url = site.stack.url;
    const signOut = page.getByRole('button', { name: 'Sign out' });
    if (await signOut.count()) {
      await signOut.click();
      await page.waitForURL(/\/login$/);
    } else await page.goto(`${url}/login`);
    await page.getByLabel('Email').fill('lead@northside.demo.local');
    await page.locator('input[name="password"]').fill('Not-The-Password-1!');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('form', { name: 'Sign in' }).getByText('Invalid credentials').waitFor();
    const admin = await signIn(url, 'admin@northside.demo.local');
    const usage = await json<Usage>(await apiFetch(url, admin, '/api/usage'));
    const compliance = await json<Compliance>(await apiFetch(url, admin, '/api/compliance'));
    await signInThroughSite(page, url, 'admin@northside.demo.local', TEST_DEMO_PASSWORD);

    // Act
    await page.goto(`${url}/hospital-admin/usage`);
    await page.getByTestId('next-bill').waitFor();
    const nextBill = await page.getByTestId('next-bill').textContent();
    const storage = await page.getByTestId('meter-storage').textContent();
    await page.screenshot({ path: outputPath('usage.png'), fullPage: true });
    await page.goto(`${url}/compliance`);
    const failed = page.getByText('Failed Sign-ins').locator('..');
    await failed.waitFor();
    const failedText = await failed.textContent();

    // Assess
    const hospital = usage.hospitals[0]!;
    expect(nextBill).toBe(
      new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 2 }).format(
        hospital.invoice.amount,
      ),
    );
    expect(storage).toContain(`(${hospital.storage.percent}%)`);
    expect(compliance.signIns.failed).toBeGreaterThanOrEqual(1);
    expect(compliance.signIns.attempts).toBeGreaterThan(compliance.signIns.succeeded);
    expect(failedText).toContain(`Failed Sign-ins${compliance.signIns.failed}`);
  });
});
