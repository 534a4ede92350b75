import { describe, expect, it } from 'vitest';
import { createAwsDeps } from '#functions/adapters/index.ts';
import { searchTextOf } from '#shared/domain/datasets/view.ts';
import { datasetPrefix } from '#shared/domain/object-keys.ts';
import { apiFetch, signIn, TEST_DEMO_PASSWORD, type TestStack } from '#tests/helpers/local-stack.ts';
import { useSiteInBrowser } from './browser.ts';
import { datasetRecord } from '#tests/helpers/datasets.ts';
import { tinyNifti } from '#tests/helpers/nifti-phantom.ts';
import { NORTHSIDE_DEMO_PROFILE } from '#tests/helpers/fixtures.ts';

// The lock of a patient link is 15 minutes; this twin shortens it (docs/local-twin.md#mail).
process.env.IWS_SHARE_LOCK_SECONDS = '3';

const HOSPITAL = 'hosp-northside';
const MEMBER = 'member@northside.demo.local';
const PATIENT = 'patient.e2e@example.org';

let datasetId = '';
let strokeDatasetId = '';

/** A complete dataset of the member's team with one volume, planted through the twin's own store. */
async function plantDataset(stack: TestStack) {
  const deps = await createAwsDeps();
  const token = await signIn(stack.url, MEMBER, TEST_DEMO_PASSWORD);
  const me = await (await apiFetch(stack.url, token, '/api/me')).json();
  // This test is about the link itself: the hospital lets shares go outside its domains without approval
  // (docs/domain.md#share-policy); tests/integration/shares/share-policy.test.ts holds the switches.
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
  // The team's own approval switch is on by default: off here too, for the member's share to go out at once.
  for (const teamId of ['team-northside-neuroradiology', 'team-northside-stroke']) {
    const team = await apiFetch(stack.url, admin, `/api/teams/${teamId}`, {
      method: 'PATCH',
      body: { settings: { requireApprovalForDataSharing: false } },
    });
    if (team.status !== 200) throw new Error(`Team settings not saved: ${team.status}`);
  }
  datasetId = `ds-share-${Date.now().toString(36)}`;
  const base = datasetRecord({
    id: datasetId,
    hospitalId: HOSPITAL,
    teamId: 'team-northside-neuroradiology',
    ownerUserId: me.user.id as string,
    studyType: 'FOLLOW_UP',
    studyDescription: 'Shared brain MRI',
    clinicalIndication: 'Follow-up',
  });
  await deps.datasets.create(base);
  // A dataset of another team of the hospital, which the member does not see until it is shared with their team.
  strokeDatasetId = `${datasetId}-stroke`;
  const stroke = {
    ...base,
    id: strokeDatasetId,
    teamId: 'team-northside-stroke',
    ownerUserId: 'someone-of-stroke',
    studyDescription: 'Stroke team CT',
  };
  await deps.datasets.create({ ...stroke, searchText: searchTextOf(stroke) });
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
    createdAt: base.createdAt,
    bucket: 'assets',
    objectKey,
  });
}

type Mail = { items: { to: string; tag: string; text: string; at: string }[] };

async function latestCode(url: string): Promise<string> {
  const mail = (await (await fetch(`${url}/_mail/messages.json`)).json()) as Mail;
  const message = mail.items.find((m) => m.to === PATIENT && m.tag === 'patient-share-code');
  return /\b(\d{6})\b/.exec(message!.text)![1]!;
}

describe('sharing a study with a patient in the browser', () => {
  const site = useSiteInBrowser({ seed: plantDataset, signInAs: MEMBER });

  it('creates a link, locks it after five wrong codes, opens the watermarked study, and revoke closes the open page', async () => {
    // Prepare: the member shares from the dataset page.
    const { page } = site.browser;
    const url = site.stack.url;
    await page.goto(`${url}/datasets/${datasetId}`);
    await page.getByTestId('share-panel').waitFor();
    await page.getByTestId('share-email').fill(PATIENT);
    await page.getByTestId('share-with-patient').click();
    const link = await page.getByTestId('patient-link-url').inputValue();
    expect(link).toMatch(/\/p\/[A-Za-z0-9_-]{43}$/);
    await page.getByTestId('patient-share-status').first().waitFor();

    // Act: the patient asks for a code and gets five wrong.
    await page.goto(link);
    await page.getByTestId('send-code').click();
    await page.getByTestId('share-code').waitFor();
    const code = await latestCode(url);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      await page.getByTestId('share-code').fill(wrong);
      await page.getByTestId('verify-code').click();
      await page.getByTestId('patient-error').waitFor();
    }
    const locked = await page.getByTestId('patient-error').textContent();
    // After the (shortened) lock, a new code opens the study.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    await page.getByRole('button', { name: 'Send a new code' }).click();
    let fresh = code;
    for (let i = 0; i < 50 && fresh === code; i++) {
      await page.waitForTimeout(200);
      fresh = await latestCode(url);
    }
    await page.getByTestId('share-code').fill(fresh);
    await page.getByTestId('verify-code').click();
    await page.getByTestId('patient-viewer').waitFor();
    const watermark = await page.getByTestId('patient-watermark').getAttribute('aria-label');
    const mailText = JSON.stringify(await (await fetch(`${url}/_mail/messages.json`)).json());

    // The owner revokes: the open page loses access on its next refresh.
    const token = await signIn(url, MEMBER, TEST_DEMO_PASSWORD);
    const shares = await (await apiFetch(url, token, `/api/datasets/${datasetId}/patient-shares`)).json();
    const revoked = await apiFetch(url, token, `/api/datasets/${datasetId}/patient-shares/${shares.items[0].id}`, {
      method: 'DELETE',
    });
    await page.getByTestId('patient-closed').waitFor({ timeout: 25_000 });
    const log = await (
      await apiFetch(url, token, `/api/datasets/${datasetId}/patient-shares/${shares.items[0].id}/access-log`)
    ).json();

    // Assess
    expect(locked).toBe('Too many incorrect codes. This link is locked for 1 minutes.');
    expect(watermark).toContain(PATIENT);
    expect(watermark).toContain(shares.items[0].id);
    expect(mailText).not.toContain('Shared brain MRI');
    expect(mailText).not.toContain('PT-000000000000');
    expect(revoked.status).toBe(200);
    expect(log.items.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining(['CODE_SENT', 'WRONG_CODE', 'LOCKED', 'OPENED']),
    );
    expect(await page.getByTestId('patient-closed').textContent()).toContain(
      'This link is invalid or no longer available.',
    );
  }, 240_000);

  it('shows a dataset shared with the team under "Shared with you" and hides it again on revoke', async () => {
    // Prepare
    const { page } = site.browser;
    const url = site.stack.url;
    await page.goto(`${url}/datasets/${strokeDatasetId}`);
    await page.getByText('The requested dataset could not be found.').waitFor();
    const admin = await signIn(url, 'admin@northside.demo.local', TEST_DEMO_PASSWORD);

    // Act: a hospital admin shares it with the member's team.
    const shared = await apiFetch(url, admin, `/api/datasets/${strokeDatasetId}/team-shares`, {
      method: 'POST',
      body: { teamId: 'team-northside-neuroradiology', permissions: ['view'] },
    });
    const share = (await shared.json()).items[0];
    await page.goto(`${url}/datasets`);
    await page.getByTestId('shared-with-you').getByText('Stroke team CT').waitFor();
    await page.getByTestId('shared-with-you').getByText('Stroke team CT').click();
    await page.getByRole('heading', { name: 'Stroke team CT' }).waitFor();
    const badge = await page.getByText('Shared with you').first().textContent();
    const sharePanel = await page.getByTestId('share-panel').count();
    await apiFetch(url, admin, `/api/datasets/${strokeDatasetId}/team-shares/${share.id}`, { method: 'DELETE' });
    await page.goto(`${url}/datasets/${strokeDatasetId}`);
    await page.getByText('The requested dataset could not be found.').waitFor();
    await page.goto(`${url}/datasets`);
    await page.getByRole('heading', { name: 'Datasets' }).waitFor();
    await page.waitForTimeout(1_000);

    // Assess
    expect(shared.status).toBe(201);
    expect(badge).toBe('Shared with you');
    expect(sharePanel).toBe(0);
    expect(await page.getByTestId('shared-with-you').count()).toBe(0);
  }, 120_000);
});
