import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { TEST_DEMO_PASSWORD } from '#tests/helpers/local-stack.ts';
import { SHARED_DATA } from '#tests/helpers/shared-data.ts';
import { outputPath, sampleViewerCanvas, signInThroughSite, useSiteInBrowser } from './browser.ts';
import { runWizardToUpload, waitForDatasetStatus, waitForViewer } from './wizard.ts';

/**
 * Walking skeleton through the site: sign in as a team member, upload a whole GE T1 study
 * folder with the wizard, watch it reach COMPLETE on the Datasets page, and see the volume drawn in the visualizer.
 */
describe('walking skeleton in the browser', () => {
  const site = useSiteInBrowser();

  it('uploads a study folder through the wizard and shows its volume in the visualizer', async () => {
    // Prepare
    const { page } = site.browser;
    const folder = join(SHARED_DATA, 'dicom/ge-t1-ir-spgr/dicom');
    await signInThroughSite(page, site.stack.url, 'member@northside.demo.local', TEST_DEMO_PASSWORD);
    await page.getByRole('heading', { name: 'Team Member Dashboard' }).waitFor();

    // Act
    const discovered = await runWizardToUpload(
      page,
      site.stack.url,
      {
        mrn: 'WS-0001',
        studyType: 'Diagnostic',
        studyDescription: 'Walking skeleton T1',
        orderingPhysician: 'Dr. Ada Lovelace',
        department: 'Radiology',
        clinicalIndication: 'Headache, rule out mass',
      },
      folder,
    );
    await page.getByText('All files uploaded').waitFor({ timeout: 180_000 });
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Datasets' }).click();
    await page.waitForURL(/\/datasets$/);
    const datasetId = await waitForDatasetStatus(page, site.stack.url, 'Walking skeleton T1', 'COMPLETE', 420_000);
    const unread = Number(await page.getByTestId('notification-count').textContent());
    await page.getByRole('button', { name: /^Notifications/ }).click();
    const notificationTitles = await page.getByRole('dialog').getByRole('listitem').allTextContents();
    await page.keyboard.press('Escape');
    await page
      .getByTestId('dataset-card')
      .filter({ hasText: 'Walking skeleton T1' })
      .getByRole('link', { name: /View/ })
      .click();
    await page.waitForURL(`**/visualizer/${datasetId}`);
    await waitForViewer(page);
    const pixels = await sampleViewerCanvas(page);
    await page.screenshot({ path: outputPath('walking-skeleton-visualizer.png') });

    // Assess
    expect(discovered).toEqual({ validFiles: 196, series: 1 });
    expect(unread).toBeGreaterThanOrEqual(1);
    expect(notificationTitles.some((t) => t.startsWith('Upload finished'))).toBe(true);
    expect(await page.getByTestId('visualizer-title').textContent()).toBe('Walking skeleton T1');
    expect(await page.getByText('Lovelace').count()).toBeGreaterThan(0);
    expect(pixels.nonBackground).toBeGreaterThan(500);
    expect(pixels.distinct).toBeGreaterThan(20);
  }, 900_000);
});
