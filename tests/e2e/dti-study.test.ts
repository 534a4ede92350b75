import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_DEMO_PASSWORD } from '#tests/helpers/local-stack.ts';
import { SHARED_DATA } from '#tests/helpers/shared-data.ts';
import { outputPath, sampleViewerCanvas, signInThroughSite, useSiteInBrowser } from './browser.ts';
import { runWizardToUpload, waitForDatasetStatus, waitForViewer } from './wizard.ts';

const PDFTOTEXT = '/usr/bin/pdftotext';
const STUDY = 'DTI b2000 research scan';

/**
 * The diffusion path through the site: a Philips diffusion study (680 files, so the enhanced uploader) with a patient context,
 * classified DTI, its classification locked once processing has started, viewed with its tractography, and its PDF report downloaded.
 */
describe('a diffusion study in full, in the browser', () => {
  beforeAll(() => {
    if (!existsSync(PDFTOTEXT))
      throw new Error(
        `pdftotext is required to read the downloaded report (Debian: apt-get install poppler-utils); not found at ${PDFTOTEXT}`,
      );
  });
  const site = useSiteInBrowser();

  it('uploads, classifies as DTI, takes a manual classification, shows tracts and serves the report', async () => {
    // Prepare
    const { page } = site.browser;
    await signInThroughSite(page, site.stack.url, 'lead@northside.demo.local', TEST_DEMO_PASSWORD);

    // Act: upload through the wizard
    const discovered = await runWizardToUpload(
      page,
      site.stack.url,
      {
        mrn: 'DTI-2000-01',
        studyType: 'Research',
        studyDescription: STUDY,
        orderingPhysician: 'Grace Hopper',
        department: 'Neurology',
        clinicalIndication: 'White matter tract assessment',
      },
      join(SHARED_DATA, 'dicom/philips-dti-b2000/dicom'),
      { enhanced: true },
    );
    await page.getByText('All files uploaded').waitFor({ timeout: 300_000 });
    const datasetId = await waitForDatasetStatus(page, site.stack.url, STUDY, 'COMPLETE', 600_000);

    // Act: dataset page, classification and its override
    await page.goto(`${site.stack.url}/datasets/${datasetId}`);
    const row = page.getByTestId('series-row').first();
    await row.waitFor();
    const modelType = await row.getAttribute('data-classified-type');
    const modelSource = await row.getAttribute('data-source');
    const seriesText = (await row.locator('td').nth(2).textContent()) ?? '';
    // Once processing has started the classification no longer steers anything: the page offers no change.
    const classificationLocked = await row.getByLabel(/Change classification of series/).isDisabled();

    // Act: the report, downloaded as a user does
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-report').click()]);
    const reportPath = outputPath('dti-study-report.pdf');
    await download.saveAs(reportPath);
    const reportText = execFileSync(PDFTOTEXT, ['-layout', reportPath, '-'], { encoding: 'utf8' });

    // Act: the visualizer with the tractography
    await page.goto(`${site.stack.url}/visualizer/${datasetId}`);
    await waitForViewer(page);
    await page.getByText('Tractography').click();
    await waitForViewer(page, 'tracts');
    const meshes = await page.getByTestId('niivue-canvas').getAttribute('data-meshes');
    const pixels = await sampleViewerCanvas(page);
    await page.screenshot({ path: outputPath('dti-study-visualizer.png') });

    // Assess
    expect(discovered.series).toBeGreaterThanOrEqual(1);
    expect(discovered.validFiles).toBe(680);
    expect(modelType).toBe('DTI');
    expect(modelSource).toBe('AI');
    expect(classificationLocked).toBe(true);
    expect(readFileSync(reportPath).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const description = /#\d+ (.+?)(MR ·|$)/.exec(seriesText)?.[1]?.trim() ?? '';
    expect(description.length).toBeGreaterThan(0);
    expect(reportText.replace(/\s+/g, ' ')).toContain(description.slice(0, 20));
    expect(reportText).toContain('DTI');
    expect(meshes).toBe('1');
    expect(pixels.nonBackground).toBeGreaterThan(500);
  }, 1_200_000);
});
