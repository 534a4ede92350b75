import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { createAwsDeps } from '#functions/adapters/index.ts';
import { parseDicom } from '#shared/dicom/parse.ts';
import { studyKeys } from '#shared/domain/object-keys.ts';
import { REVIEW_WARNING } from '#web/features/datasets/utils/redaction.ts';
import type { DatasetRecord, SeriesRecord } from '#shared/domain/datasets/ports.ts';
import { datasetRecord } from '#tests/helpers/datasets.ts';
import { buildDicom } from '#tests/helpers/dicom-builder.ts';
import { apiFetch, signIn, TEST_DEMO_PASSWORD, type TestStack } from '#tests/helpers/local-stack.ts';
import { SHARED_DATA } from '#tests/helpers/shared-data.ts';
import { outputPath, useSiteInBrowser } from './browser.ts';
import { fillPatientContext } from './wizard.ts';

const DRAFTS = 14;

/**
 * The Datasets page, the wizard's drafts and BIDS ZIP, the visualizer's not-found state, and the review of a series
 * held for burned-in text.
 */

/**
 * A complete dataset of the lead's team with one series, planted in the twin's stores (after the list tests, so their
 * counts are unchanged); the lead's token comes with it.
 */
async function plantLeadDataset(
  url: string,
  prefix: string,
  dataset: Partial<DatasetRecord>,
  series: Pick<SeriesRecord, 'id' | 'description' | 'modality' | 'sliceCount'> & Partial<SeriesRecord>,
) {
  const deps = await createAwsDeps();
  const token = await signIn(url, 'lead@northside.demo.local', TEST_DEMO_PASSWORD);
  const me = await (await apiFetch(url, token, '/api/me')).json();
  const id = `${prefix}-${Date.now().toString(36)}`;
  const hospitalId = 'hosp-northside';
  await deps.datasets.create(
    datasetRecord({
      id,
      hospitalId,
      teamId: 'team-northside-neuroradiology',
      ownerUserId: me.user.id as string,
      ...dataset,
    }),
  );
  await deps.datasets.putSeries({
    datasetId: id,
    hospitalId,
    seriesInstanceUID: series.id,
    seriesNumber: 1,
    sizeBytes: 1,
    selected: true,
    classification: null,
    createdAt: new Date().toISOString(),
    ...series,
  });
  return { deps, token, id, hospitalId };
}

describe('datasets page, drafts and exports', () => {
  /** Drafts made through the API before the browser opens, so the first page load already has more than one page. */
  async function createDrafts(stack: TestStack) {
    const token = await signIn(stack.url, 'lead@northside.demo.local', TEST_DEMO_PASSWORD);
    for (let i = 1; i <= DRAFTS; i++) {
      const response = await apiFetch(stack.url, token, '/api/datasets', {
        method: 'POST',
        body: {
          mrn: `PAGE-${i}`,
          studyType: i % 3 === 0 ? 'EMERGENCY' : 'DIAGNOSTIC',
          studyDescription: `Paging study ${String(i).padStart(2, '0')}`,
          clinicalIndication: 'Paging check',
          orderingPhysician: 'Dr. Page',
          department: 'Radiology',
          patientConsent: true,
          hipaaDisclosure: true,
        },
      });
      if (response.status !== 201 && response.status !== 200)
        throw new Error(`Creating a draft answered ${response.status}: ${await response.text()}`);
    }
  }
  const site = useSiteInBrowser({ seed: createDrafts, signInAs: 'lead@northside.demo.local' });

  const titlesOnPage = async () =>
    await site.browser.page
      .getByTestId('dataset-card')
      .evaluateAll((cards) => cards.map((c) => c.querySelector('a')?.textContent ?? ''));

  it('pages with the API cursor, page sizes and keyboard shortcuts', async () => {
    // Prepare
    const { page } = site.browser;
    await page.goto(`${site.stack.url}/datasets`);
    await page.getByTestId('dataset-card').first().waitFor();

    // Act
    const defaultCount = await page.getByTestId('dataset-card').count();
    await page.getByLabel('Page size').selectOption('6');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="dataset-card"]').length === 6);
    const first = await titlesOnPage();
    await page.locator('body').click({ position: { x: 5, y: 400 } });
    await page.keyboard.press('Control+ArrowRight');
    await page.waitForFunction(
      (t) => document.querySelector('[data-testid="dataset-card"] a')?.textContent !== t,
      first[0],
    );
    const second = await titlesOnPage();
    await page.keyboard.press('End');
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid="dataset-card"]').length === n,
      DRAFTS % 6,
      { timeout: 30_000 },
    );
    const last = await titlesOnPage();
    await page.keyboard.press('Home');
    await page.waitForFunction(
      (t) => document.querySelector('[data-testid="dataset-card"] a')?.textContent === t,
      first[0],
    );
    const statuses = await page.getByTestId('dataset-status').allTextContents();

    // Assess
    expect(defaultCount).toBe(12);
    expect(first).toHaveLength(6);
    expect(second).toHaveLength(6);
    expect(new Set([...first, ...second, ...last]).size).toBe(DRAFTS);
    expect(last).toHaveLength(DRAFTS % 6);
    expect(new Set(statuses)).toEqual(new Set(['CREATED']));
  });

  it('shows the record empty states and clears filters', async () => {
    // Prepare
    const { page } = site.browser;
    await page.goto(`${site.stack.url}/datasets`);
    await page.getByTestId('dataset-card').first().waitFor();

    // Act
    await page.getByRole('textbox', { name: 'Search datasets' }).last().fill('no-such-study-anywhere');
    await page.getByText('No datasets match your filters').waitFor();
    const hint = await page.getByText('Try adjusting your search criteria or status filter to find datasets.').count();
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await page.getByTestId('dataset-card').first().waitFor();
    await page.getByLabel('Status filter').selectOption('COMPLETE');
    await page.getByText('No datasets match your filters').waitFor();
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await page.getByTestId('dataset-card').first().waitFor();
    const back = await page.getByTestId('dataset-card').count();
    const url = page.url();

    // Assess
    expect(hint).toBe(1);
    expect(back).toBe(12);
    expect(new URL(url).search).toBe('');
  });

  it('saves a draft from the wizard and exports the picked series as a BIDS ZIP', async () => {
    // Prepare
    const { page } = site.browser;
    await page.goto(`${site.stack.url}/upload`);
    await fillPatientContext(page, {
      mrn: 'ZIP-1',
      studyType: 'Screening',
      studyDescription: 'Draft with ZIP export',
      orderingPhysician: 'Dr. Curie',
      department: 'Radiology',
      clinicalIndication: 'PET screening',
    });

    // Act
    await page.getByRole('button', { name: 'Save as Draft' }).click();
    await page.getByText('Draft saved').first().waitFor();
    await page.getByRole('button', { name: 'Continue to File Upload' }).click();
    await page.getByText('Enhanced DICOM Upload (with BIDS support)').click();
    await page.getByTestId('folder-input').setInputFiles(join(SHARED_DATA, 'dicom/pet-slices'));
    await page.getByTestId('discovery-summary').waitFor({ timeout: 60_000 });
    const statLabels = await page
      .getByTestId('discovery-summary')
      .locator('dt, [class*="stat__label"]')
      .allTextContents();
    await page.getByRole('button', { name: 'Continue to Series Selection' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: /Download BIDS ZIP/ }).click(),
    ]);
    const zipPath = outputPath('wizard-bids-export.zip');
    await download.saveAs(zipPath);
    const zip = await JSZip.loadAsync(readFileSync(zipPath));
    const names = Object.keys(zip.files);
    await page.goto(`${site.stack.url}/datasets?search=${encodeURIComponent('Draft with ZIP export')}`);
    const draft = page.getByTestId('dataset-card').filter({ hasText: 'Draft with ZIP export' });
    await draft.first().waitFor();

    // Assess
    expect(statLabels.join('|')).toContain('Valid DICOM');
    expect(download.suggestedFilename()).toMatch(/^BIDS_Export_\d{4}-\d{2}-\d{2}\.zip$/);
    expect(names).toContain('dataset_description.json');
    expect(names).toContain('metadata.json');
    expect(names.filter((n) => n.startsWith('sub-01/ses-001/') && n.endsWith('.dcm'))).toHaveLength(2);
    expect(await draft.first().getAttribute('data-status')).toBe('CREATED');
  });

  it('answers an unknown dataset in the visualizer with the record texts, then goes back to the list', async () => {
    // Prepare
    const { page } = site.browser;
    // Act
    await page.goto(`${site.stack.url}/visualizer/no-such-dataset`);
    await page.getByText('Error loading dataset').waitFor();
    const text = await page.getByText('The requested dataset could not be found.').count();
    await page.waitForURL(/\/datasets$/, { timeout: 15_000 });
    // Assess
    expect(text).toBe(1);
  });

  it('reviews a held series frame by frame and redacts a rectangle drawn on it before releasing it', async () => {
    // Prepare: a complete dataset of the lead's team with a held two-instance capture, planted in the twin's stores
    // after the list tests, so their counts are unchanged
    const { page } = site.browser;
    const seriesId = '2.25.4242';
    const { deps, token, id, hospitalId } = await plantLeadDataset(
      site.stack.url,
      'ds-review',
      { studyDescription: 'Held capture review', deidentifiedAt: new Date().toISOString() },
      {
        id: seriesId,
        description: 'Screen capture',
        modality: 'OT',
        sliceCount: 2,
        burnedInText: { reasons: ['BURNED_IN_ANNOTATION'] },
      },
    );
    const keys = [1, 2].map((n) => studyKeys.instance(hospitalId, id, seriesId, `${seriesId}.${n}`));
    for (const [index, key] of keys.entries())
      await deps.objects.put(
        'studies',
        key,
        buildDicom({
          extra: [
            { tag: '00080018', vr: 'UI', value: `${seriesId}.${index + 1}` },
            { tag: '00200013', vr: 'IS', value: String(index + 1) },
            { tag: '00280301', vr: 'CS', value: 'YES' },
          ],
        }),
      );

    // Act: open the review, step to the second frame, drag over the top two rows of the left half (8x8 image)
    await page.goto(`${site.stack.url}/datasets/${id}`);
    await page.getByRole('button', { name: 'Review series 1' }).click();
    await page.getByText(REVIEW_WARNING).waitFor();
    await page.getByAltText('Frame 1 of series 1').waitFor();
    await page.getByRole('button', { name: 'Next frame' }).click();
    await page.getByAltText('Frame 2 of series 1').waitFor();
    const box = (await page.getByTestId('review-surface').boundingBox())!;
    await page.mouse.move(box.x + 1, box.y + 1);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 1, box.y + box.height / 4 - 1, { steps: 5 });
    await page.mouse.up();
    const listed = await page.getByRole('list', { name: 'Rectangles to redact' }).textContent();
    await page.getByRole('button', { name: 'Redact and release' }).click();
    await page.getByText('Series redacted and released').waitFor();
    await page.getByTestId('redacted-badge').waitFor();

    // Assess: the rectangle in image pixels, blanked in both stored instances, the series released
    expect(listed).toContain('x 0, y 0, 4 × 2 px');
    for (const key of keys) {
      const parsed = parseDicom(await deps.objects.get('studies', key));
      const pixels = parsed.dataSet.elements.x7fe00010!;
      const view = new DataView(parsed.bytes.buffer, parsed.bytes.byteOffset + pixels.dataOffset, pixels.length);
      const at = (x: number, y: number) => view.getUint16((y * 8 + x) * 2, true);
      expect([at(1, 0), at(3, 1), at(4, 0), at(1, 2)]).toEqual([0, 0, 4, 17]);
    }
    const series = await (await apiFetch(site.stack.url, token, `/api/datasets/${id}/series`)).json();
    expect(series.items[0].burnedInText.redactions).toEqual([{ x: 0, y: 0, width: 4, height: 2 }]);
  });
  it('exports a complete dataset from its page: the job runs, then the ZIP link and its expiry are shown', async () => {
    // Prepare: a complete dataset of the lead's team with one stored instance, planted in the twin's stores
    const { page } = site.browser;
    const seriesId = '2.25.4343';
    const { deps, id, hospitalId } = await plantLeadDataset(
      site.stack.url,
      'ds-export',
      { studyDescription: 'Export from the page' },
      { id: seriesId, description: 'T1', modality: 'MR', sliceCount: 1 },
    );
    await deps.objects.put(
      'studies',
      studyKeys.instance(hospitalId, id, seriesId, `${seriesId}.1`),
      buildDicom({ extra: [{ tag: '00080018', vr: 'UI', value: `${seriesId}.1` }] }),
    );

    // Act
    await page.goto(`${site.stack.url}/datasets/${id}`);
    await page.getByRole('button', { name: 'Export' }).click();
    await page.getByLabel('Export format').selectOption('dicom');
    await page.getByRole('button', { name: 'Start Export' }).click();
    const link = page.getByTestId('export-download').getByRole('link');
    await link.waitFor({ timeout: 20_000 });
    const [name, href, expiry] = [
      await link.textContent(),
      await link.getAttribute('href'),
      await page.getByTestId('export-download').textContent(),
    ];

    // Assess
    expect(name).toContain(`${id}-dicom.zip`);
    expect(href).toContain(`exports/${hospitalId}/`);
    expect(expiry).toContain('The link works until');
    const zip = await JSZip.loadAsync(new Uint8Array(await (await fetch(href!)).arrayBuffer()));
    expect(Object.keys(zip.files).sort()).toEqual(['DICOM/series-1/2.25.4343.1.dcm', 'export-manifest.json']);
  });
});
