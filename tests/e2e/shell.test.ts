import { describe, expect, it } from 'vitest';
import { TEST_DEMO_PASSWORD } from '#tests/helpers/local-stack.ts';
import { signInThroughSite, useSiteInBrowser } from './browser.ts';

/** Sign-in, guards, role navigation, theme and sign-out of the authenticated shell (docs/screens.md#authenticated-shell). */
describe('the site shell', () => {
  const site = useSiteInBrowser();

  it('sends a visitor to /login, shows local demo buttons without a password, and rejects a wrong password inline', async () => {
    // Prepare
    const { page } = site.browser;
    // Act
    await page.goto(`${site.stack.url}/datasets`);
    await page.waitForURL(/\/login\?redirectTo=%2Fdatasets/);
    await page.getByRole('button', { name: 'Team Member' }).click();
    const filledEmail = await page.getByLabel('Email').inputValue();
    const filledPassword = await page.locator('input[name="password"]').inputValue();
    await page.locator('input[name="password"]').fill('wrong-password-1');
    await page.getByRole('button', { name: 'Sign In' }).click();
    const alert = page.locator('form [role="alert"]');
    await alert.waitFor();
    // Assess
    expect(filledEmail).toBe('member@northside.demo.local');
    expect(filledPassword).toBe('');
    expect(await alert.textContent()).toContain('Invalid credentials');
  });

  it('gives each role its sidebar and guards, and clears the session on sign-out', async () => {
    // Prepare
    const { page } = site.browser;
    await signInThroughSite(page, site.stack.url, 'member@northside.demo.local', TEST_DEMO_PASSWORD);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await nav.getByText('Dashboard').waitFor();

    // Act
    const memberEntries = (await nav.getByRole('link').allTextContents()).map((t) => t.trim());
    await page.goto(`${site.stack.url}/hospital-admin`);
    await page.waitForURL(/\/dashboard$/);
    await page.goto(`${site.stack.url}/users`);
    await page.getByText('Access Denied').waitFor();
    const deniedText = await page.getByText("You don't have permission to access user management.").count();
    await page.getByRole('button', { name: /Switch to (dark|light) theme/ }).click();
    const storedTheme = await page.evaluate(() => localStorage.getItem('iws.theme'));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login$/);
    await page.goto(`${site.stack.url}/dashboard`);
    await page.waitForURL(/\/login/);
    const tokensLeft = await page.evaluate(
      () =>
        Object.keys(localStorage).filter(
          (k) => k.startsWith('CognitoIdentityServiceProvider.') && k.endsWith('idToken'),
        ).length,
    );

    await signInThroughSite(page, site.stack.url, 'admin@northside.demo.local', TEST_DEMO_PASSWORD);
    await page.waitForURL(/\/hospital-admin$/);
    await page.getByRole('heading', { name: 'Hospital Admin Dashboard' }).waitFor();
    const adminEntries = (await nav.getByRole('link').allTextContents()).map((t) => t.trim());

    // Assess
    expect(memberEntries).toEqual(['Dashboard', 'Datasets', 'Upload DICOM', 'Settings']);
    expect(deniedText).toBe(1);
    expect(['light', 'dark']).toContain(storedTheme);
    expect(tokensLeft).toBe(0);
    expect(adminEntries).toEqual(['Dashboard', 'Datasets', 'Teams', 'Users', 'Compliance', 'Reports', 'Settings']);
  });
});
