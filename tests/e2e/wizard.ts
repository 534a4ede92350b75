/** Steps of the upload wizard as a user takes them, shared by the browser tests. */
import type { Page } from 'playwright-core';

export type PatientContext = {
  mrn: string;
  studyType: 'Diagnostic' | 'Follow-up' | 'Screening' | 'Emergency' | 'Research';
  studyDescription: string;
  orderingPhysician: string;
  department: string;
  clinicalIndication: string;
};

export async function fillPatientContext(page: Page, context: PatientContext): Promise<void> {
  await page.getByLabel('Medical Record Number (MRN)').fill(context.mrn);
  await page.getByLabel('Study Type').selectOption({ label: context.studyType });
  await page.getByLabel('Study Description').fill(context.studyDescription);
  await page.getByLabel('Ordering Physician').fill(context.orderingPhysician);
  // A choice of the hospital's departments; typed only while the hospital has none (docs/screens.md#upload-wizard).
  const department = page.getByLabel('Department');
  await page.waitForFunction(() => !document.querySelector('select[name="department"][disabled]'));
  if ((await department.evaluate((el) => el.tagName)) === 'SELECT')
    await department.selectOption({ label: context.department });
  else await department.fill(context.department);
  await page.getByLabel('Clinical Indication').fill(context.clinicalIndication);
  await page.getByText('Patient consent obtained').click();
  await page.getByText('HIPAA disclosure acknowledged').click();
}

/** Steps 1 to 4 with a whole folder picked through the folder input; returns the discovery line's counts. */
export async function runWizardToUpload(
  page: Page,
  url: string,
  context: PatientContext,
  folder: string,
  options: { enhanced?: boolean } = {},
): Promise<{ validFiles: number; series: number }> {
  await page.goto(`${url}/upload`);
  await fillPatientContext(page, context);
  await page.getByRole('button', { name: 'Continue to File Upload' }).click();
  if (options.enhanced) await page.getByText('Enhanced DICOM Upload (with BIDS support)').click();
  await page.getByTestId('folder-input').setInputFiles(folder);
  const summary = page.getByTestId('discovery-counts');
  await summary.waitFor({ timeout: 120_000 });
  const text = (await summary.textContent()) ?? '';
  const match = /: (\d+) valid DICOM files in (\d+) series/.exec(text);
  if (!match) throw new Error(`Unexpected discovery summary: ${text}`);
  await page.getByRole('button', { name: 'Continue to Series Selection' }).click();
  await page.getByTestId('upload-series-row').first().waitFor();
  await page.getByRole('button', { name: 'Continue to Anonymization' }).click();
  await page.getByRole('button', { name: 'Start Upload' }).click();
  return { validFiles: Number(match![1]), series: Number(match![2]) };
}

/** Waits on the Datasets page until the card of the dataset shows `status` (the page refreshes while active). */
export async function waitForDatasetStatus(
  page: Page,
  url: string,
  studyDescription: string,
  status: string,
  timeoutMs: number,
): Promise<string> {
  if (!page.url().endsWith('/datasets')) await page.goto(`${url}/datasets`);
  const card = page.getByTestId('dataset-card').filter({ hasText: studyDescription });
  await card.first().waitFor({ timeout: 30_000 });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const current = await card.first().getAttribute('data-status');
    if (current === status) break;
    if (current === 'FAILED' && status !== 'FAILED') {
      throw new Error(`Dataset failed: ${await card.first().textContent()}`);
    }
    if (Date.now() > deadline) throw new Error(`Dataset still ${current} after ${timeoutMs} ms`);
    await page.waitForTimeout(1000);
  }
  return (await card.first().getAttribute('data-dataset-id'))!;
}

/** Opens the visualizer and waits until NiiVue has loaded the volume (and the layers asked for). */
export async function waitForViewer(page: Page, expectLayers = ''): Promise<void> {
  const canvas = page.getByTestId('niivue-canvas');
  await canvas.waitFor({ timeout: 60_000 });
  await page.waitForFunction(
    (layers) => {
      const el = document.querySelector('[data-testid="niivue-canvas"]') as HTMLCanvasElement | null;
      if (document.querySelector('[data-testid="viewer-error"]')) return true;
      return !!el && el.dataset.loading === 'false' && (el.dataset.loaded ?? '').endsWith(`|${layers}`);
    },
    expectLayers,
    { timeout: 180_000, polling: 500 },
  );
  const error = page.getByTestId('viewer-error');
  if (await error.count()) throw new Error(`The viewer failed: ${await error.textContent()}`);
}
