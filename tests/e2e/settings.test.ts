import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createDocumentClient } from '#functions/adapters/dynamo/client.ts';
import { requireResource, resetEnvCache, serverEnv } from '#functions/lib/env.ts';
import { keys } from '#shared/definitions/table/keys.ts';
import { ENV } from '#shared/definitions/env.ts';
import { fileKeyOf } from '#tests/helpers/file-keys.ts';
import { apiFetch, signIn, TEST_DEMO_PASSWORD } from '#tests/helpers/local-stack.ts';
import { signInThroughSite, useSiteInBrowser } from './browser.ts';
import { newDatasetBody } from '#tests/helpers/datasets.ts';

/** A 1×1 PNG. */
const PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);

/** Another part of the system counts the bytes a hospital stores; the test sets the counter as it would: 2 GB. */
async function storageInUse(): Promise<void> {
  resetEnvCache();
  const env = serverEnv();
  const doc = createDocumentClient({ region: env.AWS_REGION, endpoint: env.DYNAMODB_ENDPOINT });
  await doc.send(
    new UpdateCommand({
      TableName: requireResource(env, ENV.TABLE_NAME),
      Key: keys.hospital('hosp-northside'),
      UpdateExpression: 'SET storageUsedBytes = :b',
      ExpressionAttributeValues: { ':b': 2 * 1024 ** 3 },
    }),
  );
}

/** Settings and hospital settings in the browser (docs/screens.md#settings-page, docs/screens.md#hospital-settings-page). */
describe('settings', () => {
  const site = useSiteInBrowser({ seed: storageInUse });

  it('refuses an upload with the catalogue message once an admin lowers the storage cap below what is in use', async () => {
    // Prepare
    const { page } = site.browser;
    const url = site.stack.url;
    await signInThroughSite(page, url, 'admin@northside.demo.local', TEST_DEMO_PASSWORD);
    await page.goto(`${url}/hospital-admin/settings`);

    // Act: the seeded hospital has no billing contact yet, which the profile requires.
    await page.getByLabel('Billing contact').fill('billing@northside.demo.local');
    await page.getByRole('tab', { name: 'Usage' }).click();
    await page.getByLabel('Storage cap (GB)').fill('1');
    await page.getByText('You have unsaved changes').waitFor();
    await page.getByRole('button', { name: 'Save Changes' }).first().click();
    await page.getByText('You have unsaved changes').waitFor({ state: 'detached' });
    const member = await signIn(url, 'member@northside.demo.local', TEST_DEMO_PASSWORD);
    const created = await apiFetch(url, member, '/api/datasets', {
      method: 'POST',
      body: newDatasetBody({ mrn: 'MRN-E2E' }),
    });
    const { id } = (await created.json()) as { id: string };
    const refused = await apiFetch(url, member, `/api/datasets/${id}/upload/session`, {
      method: 'POST',
      body: { files: [{ fileKey: fileKeyOf('a/1.dcm'), sizeBytes: 1000 }] },
    });

    // Assess
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      'This upload would exceed the storage cap of 1 GB (2 GB in use).',
    );
  });

  it("keeps a member's notification preferences and shows the avatar they upload", async () => {
    // Prepare
    const { page } = site.browser;
    const url = site.stack.url;
    await page.goto(`${url}/dashboard`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login$/);
    await signInThroughSite(page, url, 'member@northside.demo.local', TEST_DEMO_PASSWORD);
    await page.goto(`${url}/settings`);
    await page.getByRole('tab', { name: 'Profile' }).waitFor();
    const tabs = (await page.getByRole('tab').allTextContents()).map((t) => t.trim());
    await page.getByRole('tab', { name: 'Notifications' }).click();
    const sms = page.getByLabel('SMS');
    await sms.waitFor({ state: 'attached' });
    const before = await sms.isChecked();

    // Act
    await page.getByText('SMS', { exact: true }).click();
    await page.getByRole('button', { name: 'Save Preferences' }).click();
    await page.getByText('Preferences saved').first().waitFor();
    await page.reload();
    await page.getByRole('tab', { name: 'Notifications' }).click();
    await page.getByLabel('SMS').waitFor({ state: 'attached' });
    const after = await page.getByLabel('SMS').isChecked();

    // The avatar goes to S3 through a presigned PUT and comes back through a presigned GET.
    await page.getByRole('tab', { name: 'Profile' }).click();
    await page.getByLabel('Avatar').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: Buffer.from(PNG) });
    await page.getByText('Avatar updated').first().waitFor();
    const shown = await page
      .locator('img[src*="_avatars"]')
      .evaluate((img: HTMLImageElement) =>
        img.complete && img.naturalWidth > 0 ? true : new Promise((r) => (img.onload = () => r(true))),
      );

    // Assess
    expect(shown).toBe(true);
    expect(tabs).toEqual(['Profile', 'Security', 'Notifications']);
    expect(before).toBe(false);
    expect(after).toBe(true);
  });
});
