import { afterAll, describe, expect, it } from 'vitest';
import { fetchRuntimeConfig } from '#cli/commands/upload.ts';
import { apiFetch, TEST_DEMO_PASSWORD } from '#tests/helpers/local-stack.ts';
import { startTestOidcProvider, type TestOidcProvider } from '#infra/local/oidc-test-provider.ts';
import { signInThroughSite, useSiteInBrowser } from './browser.ts';

/**
 * Single sign-on in the browser (docs/sso.md, docs/local-twin.md#single-sign-on): Northside's admin connects a
 * hospital's OpenID Connect provider on the SSO tab; a new user of its domain types their e-mail on the login page, is
 * sent through the twin's hosted login to the provider's login form, and lands in the product signed in, in Northside,
 * with the role their group maps to. With "SSO only", the password form is refused for the domain.
 */
const MEMBER = 'member@northside.demo.local';

describe('single sign-on in the browser', () => {
  const site = useSiteInBrowser();
  let provider: TestOidcProvider | undefined;
  afterAll(async () => {
    await provider?.close();
  });

  it('signs a new user of the domain in through the provider with the mapped role, and refuses their domain the password form with "SSO only"', async () => {
    // Arrange: the provider knows the twin's idpresponse; Amplify reaches the hosted login at https://<domain>, which
    // the browser hands to the twin's http port (docs/local-twin.md#single-sign-on).
    const url = site.stack.url;
    const { page, browser } = site.browser;
    provider = await startTestOidcProvider({ redirectUri: `${url}/_aws/cognito/oauth2/idpresponse` });
    const host = new URL(url).host;
    await browser.route(`https://${host}/**`, async (route) => {
      const response = await route.fetch({
        url: route
          .request()
          .url()
          .replace(/^https:/, 'http:'),
        maxRedirects: 0,
      });
      await route.fulfill({ response });
    });
    await signInThroughSite(page, url, 'admin@northside.demo.local', TEST_DEMO_PASSWORD);
    await page.goto(`${url}/hospital-admin/settings`);
    await page.getByRole('tab', { name: 'SSO' }).click();
    const tab = page.getByRole('tabpanel', { name: 'SSO' });
    await tab.getByLabel('Issuer URL').fill(provider.issuer);
    await tab.getByLabel('Client ID').fill(provider.clientId);
    await tab.getByLabel('Client secret').fill(provider.clientSecret);
    await tab.getByLabel('E-mail domains').fill('sso.northside.example, northside.demo.local');
    await tab.getByRole('button', { name: 'Add mapping' }).click();
    await tab.getByLabel('Group 1', { exact: true }).fill('radiology-leads');
    await tab.getByLabel('Role of group 1').selectOption('TEAM_LEAD');
    await tab
      .locator('label')
      .filter({ hasText: /^Single Sign-On$/ })
      .click();
    await tab
      .locator('label')
      .filter({ hasText: /^SSO only/ })
      .click();
    await tab.getByRole('button', { name: 'Test connection' }).click();
    await tab.getByText('The provider answered every check').waitFor();
    await tab.getByRole('button', { name: 'Save single sign-on' }).click();
    await tab.getByRole('button', { name: 'Disconnect' }).waitFor();
    await page.context().clearCookies();
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });

    // Act: the new user's e-mail on the login page, then the provider's login form.
    await page.goto(`${url}/login`);
    await page.getByLabel('Email').fill(provider.user.email);
    await page.getByLabel('Email').blur();
    await page.getByRole('button', { name: 'Continue with single sign-on' }).click();
    await page.waitForURL(new RegExp(`^${provider.issuer}/interaction/`));
    await page.locator('input[name="login"]').fill(provider.user.login);
    await page.locator('input[name="password"]').fill('any');
    await page.locator('button[type="submit"]').click();
    await page.waitForURL(/\/dashboard/, { timeout: 30_000 });
    const idToken = await page.evaluate(() => {
      const stores = [localStorage, sessionStorage];
      for (const store of stores)
        for (let i = 0; i < store.length; i++) {
          const key = store.key(i)!;
          if (key.endsWith('.idToken')) return store.getItem(key);
        }
      return null;
    });
    const me = await apiFetch(url, idToken ?? undefined, '/api/me');

    // Assert: signed in, in Northside, with the mapped role.
    expect(me.status).toBe(200);
    expect(((await me.json()) as { user: Record<string, unknown> }).user).toMatchObject({
      email: provider.user.email,
      hospitalId: 'hosp-northside',
      role: 'TEAM_LEAD',
    });

    // Act: a password user of a domain of the hospital, with "SSO only" on: the login page offers single sign-on,
    // and the password sign-in the form would make is refused.
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    await page.goto(`${url}/login`);
    await page.getByLabel('Email').fill(MEMBER);
    await page.getByLabel('Email').blur();
    const offered = page.getByRole('button', { name: 'Continue with single sign-on' });
    await offered.waitFor();
    const config = await fetchRuntimeConfig(url);
    const refused = await fetch(config.signInEndpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth',
      },
      body: JSON.stringify({
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: config.userPoolClientId,
        AuthParameters: { USERNAME: MEMBER, PASSWORD: TEST_DEMO_PASSWORD },
      }),
    });

    // Assert
    expect(await offered.isVisible()).toBe(true);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toContain(
      'Your hospital signs in with single sign-on.',
    );
  }, 120_000);
});
