import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TEST_DEMO_PASSWORD } from '#tests/helpers/local-stack.ts';
import { signInThroughSite, useSiteInBrowser } from './browser.ts';

/**
 * Every page each role reaches from its navigation, checked with axe-core against WCAG 2.1 A and AA
 * (docs/accessibility.md): one twin, one browser, client-side navigation between the pages of a role, and a failure
 * for any critical or serious violation, named by rule and element.
 */
const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

type Finding = { page: string; rule: string; impact: string; targets: string[] };

/** Pages that are not navigation entries but that every signed-in role reaches from the shell. */
const EXTRA_PAGES = ['/account/security'];
/** Pages a role reaches from its home page's quick actions rather than its navigation. */
const ROLE_PAGES: Record<string, string[]> = {
  'lead@northside.demo.local': ['/teams?tab=analytics', '/teams?tab=invitations'],
};
/** Public pages, checked once (in the guest's walk): they look the same to everyone. */
const PUBLIC_PAGES = ['/terms', '/privacy'];

describe('accessibility of every page, as each role', () => {
  const site = useSiteInBrowser();
  let axeAdded = false;

  const signInFresh = async (page: Page, email: string) => {
    await page.goto(`${site.stack.url}/home`);
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    await signInThroughSite(page, site.stack.url, email, TEST_DEMO_PASSWORD);
  };

  /** A client-side navigation, as a link of the single-page router makes it (no reload, no new sign-in). */
  const navigate = async (page: Page, href: string) => {
    await page.evaluate((to) => {
      window.history.pushState({}, '', to);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, href);
    // A route that redirects (the hospital admin's /dashboard) lands elsewhere; the page is checked where it lands.
    await page
      .waitForFunction((to) => window.location.pathname + window.location.search === to, href, { timeout: 3_000 })
      .catch(() => undefined);
    await page.locator('main h2, main h1, main [role="status"], main .chakra-empty-state').first().waitFor();
    await page.waitForLoadState('networkidle');
    // Loading skeletons and spinners give way to the page's data before it is checked.
    await page
      .waitForFunction(() => !document.querySelector('main .chakra-skeleton, main .chakra-spinner'), undefined, {
        timeout: 5_000,
      })
      .catch(() => undefined);
    // Colours are measured once transitions (a button fading in as it is enabled) have finished.
    await page
      .waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, {
        timeout: 3_000,
      })
      .catch(() => undefined);
  };

  const check = async (page: Page, label: string): Promise<Finding[]> => {
    const violations = await page.evaluate(async (tags) => {
      const axe = (window as unknown as { axe: { run(c: unknown, o: unknown): Promise<AxeResults> } }).axe;
      type AxeResults = {
        violations: {
          id: string;
          impact: string | null;
          nodes: { target: string[]; html: string; failureSummary?: string }[];
        }[];
      };
      const results = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
      return results.violations.map((v) => ({
        rule: v.id,
        impact: v.impact ?? '',
        targets: v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 100)} ${n.failureSummary ?? ''}`),
      }));
    }, WCAG_TAGS);
    return violations
      .filter((v) => v.impact === 'critical' || v.impact === 'serious')
      .map((v) => ({ page: label, ...v }));
  };

  it.each([
    'superadmin@demo.local',
    'admin@northside.demo.local',
    'lead@northside.demo.local',
    'member@northside.demo.local',
    'guest@northside.demo.local',
  ])('finds no critical or serious WCAG 2.1 A/AA violation on the pages of %s', async (email) => {
    // Prepare
    const { page, browser } = site.browser;
    if (!axeAdded) await browser.addInitScript({ path: AXE_SOURCE });
    axeAdded = true;
    await signInFresh(page, email);
    const areas = [
      page.getByRole('navigation', { name: 'Main navigation' }),
      ...(email.startsWith('admin@') ? [page.getByRole('navigation', { name: 'Hospital admin navigation' })] : []),
    ];
    const hrefs = new Set<string>([new URL(page.url()).pathname]);
    for (const area of areas) {
      await area.getByRole('link').first().waitFor();
      for (const link of await area.getByRole('link').all()) hrefs.add((await link.getAttribute('href')) ?? '');
    }
    for (const extra of EXTRA_PAGES) hrefs.add(extra);
    for (const extra of ROLE_PAGES[email] ?? []) hrefs.add(extra);
    if (email.startsWith('guest@')) for (const page of PUBLIC_PAGES) hrefs.add(page);

    // Act
    const findings: Finding[] = [];
    for (const href of hrefs) {
      await navigate(page, href);
      findings.push(...(await check(page, `${email} ${href}`)));
    }

    // Assess
    const report = findings.map((f) => `${f.page}: ${f.impact} ${f.rule} at ${f.targets.join(', ')}`);
    if (report.length) process.stderr.write(`${report.join('\n')}\n`);
    expect(hrefs.size).toBeGreaterThan(1);
    expect(report).toEqual([]);
  });
});
