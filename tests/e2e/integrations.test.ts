import { describe, expect, it } from 'vitest';
import { apiFetch, signIn, TEST_DEMO_PASSWORD } from '#tests/helpers/local-stack.ts';
import { useSiteInBrowser } from './browser.ts';

/** Hospital settings, Integrations tab in the browser (docs/screens.md#hospital-settings-page, docs/dicom-intake.md). */
describe('integrations', () => {
  const site = useSiteInBrowser({ signInAs: 'admin@northside.demo.local' });

  it('creates a DICOMweb client whose secret shows once and works, adds a DICOM node, and revokes the client', async () => {
    // Prepare
    const { page } = site.browser;
    const url = site.stack.url;
    await page.goto(`${url}/hospital-admin/settings`);
    await page.getByRole('tab', { name: 'Integrations' }).click();

    // Act: a client for the neuroradiology team.
    await page.getByText('No integrations yet.').waitFor();
    await page.getByRole('textbox', { name: 'Name' }).first().fill('Research PACS');
    await page.getByLabel('Team of the DICOMweb client').selectOption({ label: 'Neuroradiology' });
    await page.getByRole('button', { name: 'Create DICOMweb client' }).click();
    const secret = (await page.getByTestId('client-secret').textContent())!.trim();
    await page.getByRole('button', { name: 'Done' }).click();

    // Assess: the secret is gone from the page and gets a token from the pool's endpoint.
    await expect(page.getByTestId('client-secret').count()).resolves.toBe(0);
    const admin = await signIn(url, 'admin@northside.demo.local', TEST_DEMO_PASSWORD);
    const list = (await (await apiFetch(url, admin, '/api/integrations')).json()) as {
      items: { id: string; clientId: string; status: string }[];
      endpoints: { tokenUrl: string };
    };
    const client = list.items[0]!;
    const token = await fetch(list.endpoints.tokenUrl, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${client.clientId}:${secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    expect(token.status).toBe(200);

    // Act: a DICOM node, then the client revoked from the list.
    await page.getByRole('textbox', { name: 'Name' }).nth(1).fill('CT scanner');
    await page.getByLabel('Team of the DICOM node').selectOption({ label: 'Neuroradiology' });
    await page.getByRole('textbox', { name: 'Calling AE title' }).fill('CT01');
    await page.getByRole('textbox', { name: 'Allowed source addresses' }).fill('10.20.0.0/16');
    await page.getByRole('button', { name: 'Create DICOM node' }).click();
    await page.getByRole('cell', { name: 'CT scanner' }).waitFor();
    await page
      .getByRole('row', { name: /Research PACS/ })
      .getByRole('button', { name: 'Revoke' })
      .click();

    // Assess
    await page
      .getByRole('row', { name: /Research PACS/ })
      .getByText('Revoked')
      .waitFor();
    await expect(
      page
        .getByRole('row', { name: /CT scanner/ })
        .getByText('Active')
        .count(),
    ).resolves.toBe(1);
  });
});
