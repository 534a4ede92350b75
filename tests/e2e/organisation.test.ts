import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { TEST_DEMO_PASSWORD } from '#tests/helpers/local-stack.ts';
import { signInThroughSite, useSiteInBrowser } from './browser.ts';

/**
 * The organisation screens as their users take them (docs/screens.md#hospital-management, #users-page, #teams-page,
 * #hospital-admin-area): the super admin onboards a hospital and deactivates another, the hospital admin builds a
 * department and a team and moves people, and a deactivated hospital's admin is turned away at sign-in.
 */
// Two minutes a test: the hospital admin's walk reloads some 18 pages (both navigations and the quick links), its home
// with the pipeline, activity and billing panels among them, and a minute is too close on a shared machine.
describe('organisation screens', { timeout: 120_000 }, () => {
  const site = useSiteInBrowser();

  const signOut = async (page: Page) => {
    await page.getByRole('button', { name: 'Sign out' }).first().click();
    await page.waitForURL(/\/login$/);
  };
  /** Each test starts signed out, whatever the one before it left behind. */
  const signInFresh = async (page: Page, email: string) => {
    await page.goto(`${site.stack.url}/home`);
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    await signInThroughSite(page, site.stack.url, email, TEST_DEMO_PASSWORD);
  };
  const totalHospitals = async (page: Page) => Number(await page.getByTestId('summary-total-hospitals').textContent());

  it('lets the super admin add a hospital with its first admin, and deactivate one that has users', async () => {
    // Prepare
    const { page } = site.browser;
    await signInFresh(page, 'superadmin@demo.local');
    await page.goto(`${site.stack.url}/hospitals`);
    await page.getByRole('heading', { name: 'Hospital Management' }).waitFor();
    await page.getByTestId('hospital-card').first().waitFor();
    const before = await totalHospitals(page);

    // Act: the 3-step wizard
    await page.getByRole('button', { name: 'Add Hospital' }).click();
    const wizard = page.getByRole('dialog');
    const nextDisabledAtStart = await wizard.getByRole('button', { name: 'Next' }).isDisabled();
    const details: Record<string, string> = {
      name: 'Riverside Clinic',
      email: 'contact@riverside.example',
      phone: '+1 608 555 0142',
      addressLine1: '12 River Road',
      city: 'Springfield',
      state: 'IL',
    };
    for (const [name, value] of Object.entries(details)) await wizard.locator(`input[name="${name}"]`).fill(value);
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByText('$299/month').waitFor();
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.locator('input[name="adminFirstName"]').fill('Robin');
    await wizard.locator('input[name="adminLastName"]').fill('Hale');
    await wizard.locator('input[name="adminEmail"]').fill('admin@riverside.example');
    await wizard.getByRole('button', { name: 'Create Hospital' }).click();
    await wizard.waitFor({ state: 'hidden' });
    const created = page.getByTestId('hospital-card').filter({ hasText: 'Riverside Clinic' });
    await created.waitFor();
    await page.waitForFunction(
      (n) => Number(document.querySelector('[data-testid="summary-total-hospitals"]')?.textContent) === n + 1,
      before,
    );

    // Act: Manage leads to that hospital's users, where its first admin is listed as invited
    await created.getByRole('link', { name: 'Manage' }).click();
    await page.waitForURL(/\/users\?hospitalId=/);
    const firstAdmin = page.getByTestId('user-row').filter({ hasText: 'admin@riverside.example' });
    await firstAdmin.waitFor();
    const firstAdminRow = (await firstAdmin.textContent()) ?? '';

    // Act: delete (deactivate) Lakeview, which has users: typed name, then the high-impact step
    await page.goto(`${site.stack.url}/hospitals`);
    const lakeview = page.getByTestId('hospital-card').filter({ hasText: 'Lakeview Medical Center' });
    await lakeview.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    const disabledBeforeName = await dialog.getByRole('button', { name: 'Delete Hospital' }).isDisabled();
    await dialog.locator('input[name="confirmName"]').fill('Lakeview Medical Center');
    await dialog.getByRole('button', { name: 'Delete Hospital' }).click();
    await dialog.getByRole('button', { name: 'Yes, Delete Hospital' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await lakeview.getByText('Deactivated').waitFor();
    const restoreOffered = await lakeview.getByRole('button', { name: 'Restore' }).count();
    // The identities are disabled by a job (docs/jobs.md), whose progress the screen follows to its end.
    await page.locator('[data-testid="job-progress"][data-status="SUCCEEDED"]').waitFor();
    const progress = (await page.getByTestId('job-progress').first().textContent()) ?? '';
    await signOut(page);

    // Assess
    expect(nextDisabledAtStart).toBe(true);
    expect(firstAdminRow).toContain('Hospital Admin');
    expect(firstAdminRow).toContain('INVITED');
    expect(disabledBeforeName).toBe(true);
    expect(restoreOffered).toBe(1);
    expect(progress).toContain('Deactivating Lakeview Medical Center: Done');
  });

  it('lets the hospital admin add a department and a team, move a user into it and change a role', async () => {
    // Prepare
    const { page } = site.browser;
    await signInFresh(page, 'admin@northside.demo.local');
    const areaNav = page.getByRole('navigation', { name: 'Hospital admin navigation' });
    await areaNav.getByRole('link', { name: /Teams & Members/ }).click();
    await page.getByRole('heading', { name: 'Teams & Members' }).waitFor();

    // Act: a department, then a team in it
    await page.getByRole('button', { name: 'Add Department' }).click();
    let dialog = page.getByRole('dialog');
    await dialog.locator('input[name="departmentName"]').fill('Cardiology');
    await dialog.locator('textarea[name="departmentDescription"]').fill('Cardiac imaging');
    await dialog.getByRole('button', { name: 'Add Department' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByTestId('department-row').filter({ hasText: 'Cardiology' }).waitFor();
    await page.getByRole('button', { name: 'Create Team' }).click();
    dialog = page.getByRole('dialog');
    await dialog.locator('input[name="teamName"]').fill('Echo Lab');
    await dialog.getByLabel('Department').selectOption({ label: 'Cardiology' });
    await dialog.getByRole('button', { name: 'Create Team' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const teamRow = page.getByTestId('team-row').filter({ hasText: 'Echo Lab' });
    await teamRow.waitFor();

    // Act: move the member into the team, make the guest a team member
    await page.goto(`${site.stack.url}/users`);
    const member = page.getByTestId('user-row').filter({ hasText: 'member@northside.demo.local' });
    await member.getByLabel(/^Team of/).selectOption({ label: 'Echo Lab' });
    await page.getByText('Team changed').first().waitFor();
    const guest = page.getByTestId('user-row').filter({ hasText: 'guest@northside.demo.local' });
    await guest.getByLabel(/^Role of/).selectOption('TEAM_MEMBER');
    await page.getByText('Role changed').first().waitFor();
    // The server's refusal reaches the screen in its own words.
    await page
      .getByTestId('user-row')
      .filter({ hasText: 'admin@northside.demo.local' })
      .getByRole('button', { name: 'Disable' })
      .click();
    const refusal = page.getByText('You cannot disable, demote or reset your own account.').first();
    await refusal.waitFor();
    await page.reload();
    const memberTeam = await page
      .getByTestId('user-row')
      .filter({ hasText: 'member@northside.demo.local' })
      .getByLabel(/^Team of/)
      .evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent);
    const guestRole = await page
      .getByTestId('user-row')
      .filter({ hasText: 'guest@northside.demo.local' })
      .getByLabel(/^Role of/)
      .inputValue();
    await page.goto(`${site.stack.url}/hospital-admin/teams`);
    const echoMembers = (await page.getByTestId('team-row').filter({ hasText: 'Echo Lab' }).textContent()) ?? '';
    const echoDepartment =
      (await page.getByTestId('department-row').filter({ hasText: 'Cardiology' }).textContent()) ?? '';
    await signOut(page);

    // Assess
    expect(memberTeam).toBe('Echo Lab');
    expect(guestRole).toBe('TEAM_MEMBER');
    expect(echoMembers).toMatch(/1 \/ 15/);
    expect(echoDepartment).toContain('Cardiac imaging');
  });

  // One test per role, so each has the whole timeout for its own walk.
  it.each([
    'superadmin@demo.local',
    'admin@northside.demo.local',
    'lead@northside.demo.local',
    'member@northside.demo.local',
  ])('leads every sidebar and hospital-admin entry of %s to a page, never "Page not found"', async (email) => {
    // Prepare
    const { page } = site.browser;
    const notFound: string[] = [];
    await signInFresh(page, email);
    const areas = [
      page.getByRole('navigation', { name: 'Main navigation' }),
      ...(email.startsWith('admin@') ? [page.getByRole('navigation', { name: 'Hospital admin navigation' })] : []),
    ];
    const hrefs: string[] = [];
    for (const area of areas) {
      await area.getByRole('link').first().waitFor();
      for (const link of await area.getByRole('link').all()) hrefs.push((await link.getAttribute('href')) ?? '');
    }

    // Act
    for (const href of hrefs) {
      await page.goto(`${site.stack.url}${href}`);
      await page.locator('main h2, main h1, main [role="status"], main .chakra-empty-state').first().waitFor();
      await page.waitForLoadState('networkidle');
      if (await page.getByText('Page not found').count()) notFound.push(`${email} ${href}`);
    }
    await signOut(page);

    // Assess
    expect(hrefs.length).toBeGreaterThan(0);
    expect(notFound).toEqual([]);
  });

  it('turns the deactivated hospital’s admin away at sign-in', async () => {
    // Prepare
    const { page } = site.browser;
    await page.goto(`${site.stack.url}/home`);
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    await page.goto(`${site.stack.url}/login`);

    // Act
    await page.getByLabel('Email').fill('admin@lakeview.demo.local');
    await page.locator('input[name="password"]').fill(TEST_DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    const alert = page.locator('form [role="alert"]');
    await alert.waitFor();

    // Assess
    expect(new URL(page.url()).pathname).toBe('/login');
    expect((await alert.textContent())?.trim().length).toBeGreaterThan(0);
  });
});
