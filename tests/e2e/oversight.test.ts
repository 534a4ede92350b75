import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TEST_DEMO_PASSWORD } from '#tests/helpers/local-stack.ts';
import { outputPath, signInThroughSite, useSiteInBrowser } from './browser.ts';

/**
 * The compliance center and reports in the browser (docs/screens.md#compliance-center, docs/screens.md#reports):
 * figures from the twin's data, the chain verified on demand, the audit log exported, and the role gates.
 */
describe('compliance center and reports', () => {
  const site = useSiteInBrowser();

  it('lets a hospital admin verify the audit chain, read and export the audit log, and change the report period', async () => {
    // Prepare
    const { page } = site.browser;
    await signInThroughSite(page, site.stack.url, 'admin@northside.demo.local', TEST_DEMO_PASSWORD);

    // Act
    await page.goto(`${site.stack.url}/compliance`);
    await page.getByRole('heading', { name: 'Compliance Center' }).waitFor();
    await page.getByRole('button', { name: 'Verify now' }).click();
    const verification = page.getByTestId('chain-verification');
    await verification.waitFor();
    const verifiedText = await verification.textContent();
    await page.locator('[data-testid="audit-event"][data-action="AUDIT_CHAIN_VERIFIED"]').first().waitFor();
    const actions = await page
      .getByTestId('audit-event')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action')));
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const csv = readFileSync((await (await download).path())!, 'utf8');
    await page.screenshot({ path: outputPath('compliance.png'), fullPage: true });

    await page.goto(`${site.stack.url}/reports`);
    await page.getByRole('list', { name: 'Studies per month' }).waitFor();
    const threeMonths = await page.getByRole('list', { name: 'Studies per month' }).getByRole('listitem').count();
    await page.getByRole('combobox', { name: 'Period' }).selectOption('12');
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Studies per month"] li').length === 12);
    // The charts (recharts under Chakra's chart root): one bar series each, its axis ending on the current month.
    const series = await page.locator('.recharts-bar').count();
    const monthTicks = await page
      .locator('.recharts-cartesian-axis-tick-value')
      .evaluateAll((ticks) => ticks.map((t) => t.textContent ?? '').filter((t) => /^[A-Z][a-z]{2} \d{4}$/.test(t)));
    await page.screenshot({ path: outputPath('reports.png'), fullPage: true });

    // Assess
    expect(verifiedText).toContain('Verified');
    expect(actions).toContain('USER_SIGNED_IN');
    expect(actions).toContain('AUDIT_CHAIN_VERIFIED');
    expect(csv.split('\r\n')[0]).toBe('Time,Action,Outcome,Actor,Actor ID,Dataset,Target user,Details,Sequence,Hash');
    expect(threeMonths).toBe(3);
    expect(series).toBe(2);
    const thisMonth = new Date().toLocaleDateString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
    expect(monthTicks.filter((t) => t === thisMonth)).toHaveLength(2);
  });

  it('shows Access Denied to a team member on both pages', async () => {
    // Prepare
    const { page } = site.browser;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login$/);
    await signInThroughSite(page, site.stack.url, 'member@northside.demo.local', TEST_DEMO_PASSWORD);

    // Act
    await page.goto(`${site.stack.url}/compliance`);
    await page.getByText('Access Denied').waitFor();
    const compliance = await page.getByText("You don't have permission to access compliance management.").count();
    await page.goto(`${site.stack.url}/reports`);
    await page.getByText('Access Denied').waitFor();
    const reports = await page.getByText("You don't have permission to access system reports.").count();

    // Assess
    expect(compliance).toBe(1);
    expect(reports).toBe(1);
  });
});
