import type { FileChooser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createAwsDeps } from '#functions/adapters/index.ts';
import { datasetPrefix } from '#shared/domain/object-keys.ts';
import { apiFetch, signIn, TEST_DEMO_PASSWORD, type TestStack } from '#tests/helpers/local-stack.ts';
import { datasetRecord } from '#tests/helpers/datasets.ts';
import { useSiteInBrowser } from './browser.ts';
import { tinyNifti } from '#tests/helpers/nifti-phantom.ts';
import { NORTHSIDE_DEMO_PROFILE } from '#tests/helpers/fixtures.ts';

/**
 * Keyboard-only use (docs/accessibility.md#keyboard): the upload wizard, the share panel and the patient page are
 * worked with Tab, Shift+Tab, Enter, Space and the arrow keys alone; the test never clicks. Each control is reached by
 * tabbing to it, so a control Tab cannot reach, or a place Tab cannot leave, fails the test.
 */
const HOSPITAL = 'hosp-northside';
const MEMBER = 'member@northside.demo.local';
const PATIENT = 'patient.keys@example.org';
let datasetId = '';

/** A complete dataset of the member's team, and a hospital that lets a member share with a patient at once. */
async function seed(stack: TestStack) {
  const deps = await createAwsDeps();
  const admin = await signIn(stack.url, 'admin@northside.demo.local', TEST_DEMO_PASSWORD);
  const settings = await (await apiFetch(stack.url, admin, '/api/hospital-admin/settings')).json();
  const saved = await apiFetch(stack.url, admin, '/api/hospital-admin/settings', {
    method: 'PUT',
    body: {
      profile: NORTHSIDE_DEMO_PROFILE,
      policy: { ...settings.policy, shareWithExternal: true, requireApproval: false },
    },
  });
  if (saved.status !== 200) throw new Error(`Hospital settings not saved: ${saved.status}`);
  const team = await apiFetch(stack.url, admin, '/api/teams/team-northside-neuroradiology', {
    method: 'PATCH',
    body: { settings: { requireApprovalForDataSharing: false } },
  });
  if (team.status !== 200) throw new Error(`Team settings not saved: ${team.status}`);
  const member = await signIn(stack.url, MEMBER, TEST_DEMO_PASSWORD);
  const me = await (await apiFetch(stack.url, member, '/api/me')).json();
  datasetId = `ds-keys-${Date.now().toString(36)}`;
  const record = datasetRecord({
    id: datasetId,
    hospitalId: HOSPITAL,
    teamId: 'team-northside-neuroradiology',
    ownerUserId: me.user.id as string,
    studyDescription: 'Keyboard study',
  });
  await deps.datasets.create(record);
  const objectKey = `${datasetPrefix(HOSPITAL, datasetId)}assets/t1w.nii.gz`;
  await deps.objects.put('assets', objectKey, tinyNifti(), 'application/gzip');
  await deps.datasets.putAsset({
    id: 'vol-1',
    datasetId,
    hospitalId: HOSPITAL,
    type: 'VOLUME',
    label: 'T1w',
    byteSize: 100,
    mimeType: 'application/gzip',
    metadata: {},
    createdAt: record.createdAt,
    bucket: 'assets',
    objectKey,
  });
}

/** Describes the focused element: its test id, name, or text, for matching and for the failure message. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { testId: '', name: '', label: '', text: '', tag: 'BODY' };
    const labelled = el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? '';
    return {
      testId: el.closest('[data-testid]')?.getAttribute('data-testid') ?? '',
      name: el.getAttribute('name') ?? '',
      label: labelled.trim(),
      text: (el.textContent ?? '').trim().slice(0, 80),
      tag: el.tagName,
    };
  });

type Target = { testId?: string; name?: string; label?: string; text?: string };

/**
 * Presses Tab (or Shift+Tab) until the focus is on the target, at most `max` times. Fails naming what was focused
 * when the target is never reached.
 */
async function tabTo(page: Page, target: Target, options: { back?: boolean; max?: number } = {}): Promise<void> {
  const seen: string[] = [];
  for (let i = 0; i < (options.max ?? 60); i++) {
    await page.keyboard.press(options.back ? 'Shift+Tab' : 'Tab');
    const now = await focused(page);
    seen.push(`${now.tag}:${now.testId || now.name || now.label || now.text}`);
    if (
      (target.testId === undefined || now.testId === target.testId) &&
      (target.name === undefined || now.name === target.name) &&
      (target.label === undefined || now.label.includes(target.label)) &&
      (target.text === undefined || now.text.includes(target.text))
    )
      return;
  }
  throw new Error(`Tab never reached ${JSON.stringify(target)}; focus went ${seen.join(' > ')}`);
}

describe('keyboard-only use', () => {
  const site = useSiteInBrowser({ seed, signInAs: MEMBER });

  it('fills the upload wizard, shares with a patient and opens the patient page with the keyboard alone', async () => {
    const { page } = site.browser;
    const url = site.stack.url;
    // File choosers are caught from the start, so the one Enter opens is never missed.
    const choosers: FileChooser[] = [];
    page.on('filechooser', (chooser) => void choosers.push(chooser));

    // The upload wizard's first step: every field by Tab, text typed, a choice by the arrow keys, boxes by Space.
    await page.goto(`${url}/upload`);
    await page.locator('input[name="mrn"]').waitFor();
    // The department choice is disabled (out of the tab order) until the hospital's departments have loaded.
    await page.locator('select[name="department"]:not([disabled]), input[name="department"]').waitFor();
    await tabTo(page, { name: 'mrn' });
    await page.keyboard.type('MRN-KEYS-1');
    await tabTo(page, { name: 'studyType' });
    await page.keyboard.press('ArrowDown');
    await tabTo(page, { name: 'studyDescription' });
    await page.keyboard.type('Keyboard only study');
    await tabTo(page, { name: 'orderingPhysician' });
    await page.keyboard.type('Dr. Keys');
    await tabTo(page, { name: 'department' });
    await page.keyboard.press('ArrowDown');
    await tabTo(page, { name: 'clinicalIndication' });
    await page.keyboard.type('Headache');
    await tabTo(page, { name: 'patientConsent' });
    await page.keyboard.press('Space');
    await tabTo(page, { name: 'hipaaDisclosure' });
    await page.keyboard.press('Space');
    // Shift+Tab goes back through the form, then forward again to the step's button.
    await tabTo(page, { name: 'clinicalIndication' }, { back: true });
    await tabTo(page, { text: 'Continue to File Upload' });
    await page.keyboard.press('Enter');
    // The second step: the file picker opens from the keyboard.
    await page.getByText('Drag and drop DICOM files or a whole study folder here').waitFor();
    await tabTo(page, { text: 'Browse Files' });
    const onBrowse = await focused(page);
    await page.keyboard.press('Enter');
    for (let i = 0; i < 100 && choosers.length === 0; i++) await page.waitForTimeout(100);
    const picker = choosers[0];
    if (!picker) throw new Error(`Enter opened no file chooser; focus was on ${JSON.stringify(onBrowse)}`);
    const multiple = picker.isMultiple();

    // The share panel on the dataset page.
    await page.goto(`${url}/datasets/${datasetId}`);
    await page.getByTestId('share-panel').waitFor();
    // The patient form appears once the sharing policy has loaded; Tab cannot reach what is not there yet.
    await page.getByTestId('share-email').waitFor();
    await tabTo(page, { testId: 'share-email' }, { max: 120 });
    await page.keyboard.type(PATIENT);
    await tabTo(page, { testId: 'share-with-patient' });
    await page.keyboard.press('Enter');
    const link = await page.getByTestId('patient-link-url').inputValue();

    // The patient page: ask for a code, type it, open the study.
    await page.goto(link);
    await page.getByTestId('send-code').waitFor();
    await tabTo(page, { testId: 'send-code' });
    await page.keyboard.press('Enter');
    await page.getByTestId('share-code').waitFor();
    const mail = (await (await fetch(`${url}/_mail/messages.json`)).json()) as {
      items: { to: string; tag: string; text: string }[];
    };
    const code = /\b(\d{6})\b/.exec(
      mail.items.find((m) => m.to === PATIENT && m.tag === 'patient-share-code')!.text,
    )![1]!;
    await tabTo(page, { testId: 'share-code' });
    await page.keyboard.type(code);
    await tabTo(page, { testId: 'verify-code' });
    await page.keyboard.press('Enter');
    await page.getByTestId('patient-viewer').waitFor();
    await page.getByTestId('niivue-canvas').waitFor();
    // The viewer takes the focus from Tab, and gives it up to Tab and Shift+Tab: nothing holds it.
    await tabTo(page, { testId: 'niivue-canvas' });
    await page.keyboard.press('Tab');
    const after = await focused(page);
    await page.keyboard.press('Shift+Tab');
    const back = await focused(page);

    // Assess
    expect(multiple).toBe(true);
    expect(link).toMatch(/\/p\/[A-Za-z0-9_-]{43}$/);
    // The viewer is the page's last control: Tab leaves it for the browser, Shift+Tab comes back.
    expect(after.testId).not.toBe('niivue-canvas');
    expect(back.testId).toBe('niivue-canvas');
  }, 60_000);
});
