import { describe, expect, it } from 'vitest';
import { createAwsDeps } from '#functions/adapters/index.ts';
import { apiFetch, signIn, TEST_DEMO_PASSWORD, type TestStack } from '#tests/helpers/local-stack.ts';
import { datasetRecord } from '#tests/helpers/datasets.ts';
import { useSiteInBrowser } from './browser.ts';
import { NORTHSIDE_DEMO_PROFILE } from '#tests/helpers/fixtures.ts';

/**
 * The hospital admin's screens whose promise is kept on the server, each driven as a person drives it and then checked
 * through the API (docs/screens.md): the share approval queue, the legal hold of a dataset, the recycle bin, a
 * DICOMweb client's access (its scopes) and the hospital's e-mail domains for patient shares.
 */
const HOSPITAL = 'hosp-northside';
const ADMIN = 'admin@northside.demo.local';
const MEMBER = 'member@northside.demo.local';
const NEURO = 'team-northside-neuroradiology';
const STROKE = 'team-northside-stroke';

const stamp = Date.now().toString(36);
const sharedId = `ds-approval-${stamp}`;
const heldId = `ds-hold-${stamp}`;
const HELD_STUDY = 'Held brain MRI';
let pendingShareId = '';
let memberToken = '';

/**
 * Two datasets of the member's team, planted through the twin's own store; the hospital's approval switch on (the
 * team's is on by default), and the member's share of the first with the stroke team waiting in the queue.
 */
async function seed(stack: TestStack) {
  const deps = await createAwsDeps();
  const admin = await signIn(stack.url, ADMIN, TEST_DEMO_PASSWORD);
  const member = await signIn(stack.url, MEMBER, TEST_DEMO_PASSWORD);
  memberToken = member;
  const settings = await (await apiFetch(stack.url, admin, '/api/hospital-admin/settings')).json();
  const saved = await apiFetch(stack.url, admin, '/api/hospital-admin/settings', {
    method: 'PUT',
    body: { profile: NORTHSIDE_DEMO_PROFILE, policy: { ...settings.policy, requireApproval: true } },
  });
  if (saved.status !== 200) throw new Error(`Hospital settings not saved: ${saved.status}`);
  const me = await (await apiFetch(stack.url, member, '/api/me')).json();
  const owner = { hospitalId: HOSPITAL, teamId: NEURO, ownerUserId: me.user.id as string };
  await deps.datasets.create(datasetRecord({ ...owner, id: sharedId, studyDescription: 'Shared spine MRI' }));
  await deps.datasets.create(datasetRecord({ ...owner, id: heldId, studyDescription: HELD_STUDY }));
  const shared = await apiFetch(stack.url, member, `/api/datasets/${sharedId}/team-shares`, {
    method: 'POST',
    body: { teamId: STROKE, permissions: ['view'] },
  });
  const share = (await shared.json()).items?.[0];
  if (shared.status !== 201 || share?.status !== 'PENDING_APPROVAL')
    throw new Error(`The team share is not waiting for approval: ${shared.status} ${JSON.stringify(share)}`);
  pendingShareId = share.id;
}

describe("the hospital admin's promises, in the browser", () => {
  const site = useSiteInBrowser({ seed, signInAs: ADMIN });
  // The admin's ID token, signed in once for the file's API checks (it lives an hour).
  let adminToken: string | undefined;
  const api = async (path: string, init: { method?: string; body?: unknown } = {}) => {
    adminToken ??= await signIn(site.stack.url, ADMIN, TEST_DEMO_PASSWORD);
    const response = await apiFetch(site.stack.url, adminToken, path, init);
    return { status: response.status, body: await response.json() };
  };

  it("approves a member's team share from the approval queue: the share is active and the queue empty", async () => {
    // Arrange
    const { page } = site.browser;
    await page.goto(`${site.stack.url}/shares/approvals`);
    const row = page.getByRole('row').filter({ hasText: sharedId });
    await row.waitFor();
    const asked = (await row.textContent()) ?? '';

    // Act
    await row.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Share approved').first().waitFor();
    await page.getByText('No shares waiting').waitFor();

    // Assert
    expect(asked).toContain('Colleagues');
    expect(asked).toContain('view');
    const queue = await api('/api/shares/approvals');
    expect(queue.body.items.map((s: { id: string }) => s.id)).not.toContain(pendingShareId);
    const shares = await api(`/api/datasets/${sharedId}/team-shares`);
    expect(shares.body.items).toEqual([expect.objectContaining({ id: pendingShareId, status: 'ACTIVE' })]);
  });

  it('places a legal hold that hides Delete and that the server enforces, lifts it, deletes, and restores from the recycle bin', async () => {
    // Arrange
    const { page } = site.browser;
    const url = site.stack.url;
    await page.goto(`${url}/datasets/${heldId}`);
    await page.getByRole('heading', { name: HELD_STUDY }).waitFor();

    // Act: the hold, with its reason.
    await page.getByRole('button', { name: 'Legal Hold' }).click();
    await page.locator('input[name="legalHoldReason"]').fill('Litigation 2026-114');
    await page.getByRole('button', { name: 'Place Hold' }).click();
    await page.getByRole('button', { name: 'Lift Legal Hold' }).waitFor();
    const deleteWhileHeld = await page.getByRole('button', { name: 'Delete', exact: true }).count();
    const held = await api(`/api/datasets/${heldId}`);
    const refusedDelete = await api(`/api/datasets/${heldId}`, { method: 'DELETE', body: { reason: 'Cleanup' } });

    // Act: lifted, then deleted from the page with a reason.
    await page.getByRole('button', { name: 'Lift Legal Hold' }).click();
    await page.locator('input[name="legalHoldReason"]').fill('Case closed');
    await page.getByRole('button', { name: 'Lift Hold' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.locator('input[name="deleteReason"]').fill('Duplicate study');
    await page.getByRole('button', { name: 'Delete Dataset' }).click();
    await page.waitForURL(/\/datasets$/);
    const binBefore = await api('/api/datasets/recycle-bin?limit=100');

    // Act: the recycle bin lists it; Restore brings it back.
    await page.goto(`${url}/hospital-admin/recycle-bin`);
    const row = page.getByTestId('recycle-bin-row').filter({ hasText: HELD_STUDY });
    await row.waitFor();
    const listed = (await row.textContent()) ?? '';
    await row.getByRole('button', { name: `Restore ${HELD_STUDY}` }).click();
    await page.getByText('Dataset restored').first().waitFor();
    await row.waitFor({ state: 'detached' });

    // Assert
    expect(deleteWhileHeld).toBe(0);
    expect(held.body.legalHold).toMatchObject({ reason: 'Litigation 2026-114' });
    expect(refusedDelete.status).toBe(409);
    expect(refusedDelete.body.error.code).toBe('LEGAL_HOLD');
    expect(binBefore.body.items).toEqual([expect.objectContaining({ id: heldId, deletionReason: 'Duplicate study' })]);
    expect(listed).toContain('Duplicate study');
    const restored = await api(`/api/datasets/${heldId}`);
    expect(restored.status).toBe(200);
    expect(restored.body.legalHold ?? null).toBeNull();
    expect((await api('/api/datasets/recycle-bin?limit=100')).body.items).toEqual([]);
  });

  it('creates a read-only DICOMweb client from the Access boxes: the server holds the read scope and its token carries only that', async () => {
    // Arrange
    const { page } = site.browser;
    const url = site.stack.url;
    await page.goto(`${url}/hospital-admin/settings`);
    await page.getByRole('tab', { name: 'Integrations' }).click();

    // Act: Write unticked, no team (a reader of the whole hospital).
    await page.getByRole('textbox', { name: 'Name' }).first().fill('Viewer PACS');
    await page.getByText('Write', { exact: true }).click();
    await page.getByRole('button', { name: 'Create DICOMweb client' }).click();
    const secret = (await page.getByTestId('client-secret').textContent())!.trim();
    await page.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('row', { name: /Viewer PACS/ });
    await row.waitFor();
    const shown = (await row.textContent()) ?? '';

    // Assert: what the server holds, and what the pool issues for it.
    const list = await api('/api/integrations');
    const client = list.body.items.find((i: { name: string }) => i.name === 'Viewer PACS');
    expect(client).toMatchObject({ kind: 'DICOMWEB_CLIENT', scopes: ['imaging-dicomweb/read'] });
    expect(client.teamId).toBeUndefined();
    expect(shown).toContain('Whole hospital');
    expect(shown).toContain('read');
    expect(shown).not.toContain('write');
    const token = await fetch(list.body.endpoints.tokenUrl, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${client.clientId}:${secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    const { access_token } = (await token.json()) as { access_token: string };
    const claims = JSON.parse(Buffer.from(access_token.split('.')[1]!, 'base64url').toString());
    expect(claims.scope).toBe('imaging-dicomweb/read');
  });

  it("saves the hospital's e-mail domains: the server keeps them lower-cased and refuses a patient share outside them", async () => {
    // Arrange
    const { page } = site.browser;
    const url = site.stack.url;
    await page.goto(`${url}/hospital-admin/settings`);
    await page.getByRole('tab', { name: 'Patient Share' }).click();

    // Act
    await page.locator('textarea[name="recipientDomains"]').fill('northside.demo.local, Imaging.Northside.demo.local');
    await page.getByText('You have unsaved changes').waitFor();
    await page.getByRole('button', { name: 'Save Changes' }).first().click();
    await page.getByText('You have unsaved changes').waitFor({ state: 'detached' });
    const shown = await page.locator('textarea[name="recipientDomains"]').inputValue();

    // Assert: stored, and enforced on a member's patient share (external sharing is off by default).
    const settings = await api('/api/hospital-admin/settings');
    expect(settings.body.policy.recipientDomains).toEqual(['northside.demo.local', 'imaging.northside.demo.local']);
    expect(settings.body.policy.shareWithExternal).toBe(false);
    const share = (recipientEmail: string) =>
      apiFetch(url, memberToken, `/api/datasets/${sharedId}/patient-shares`, {
        method: 'POST',
        body: {
          recipientEmail,
          expiresInHours: 24,
          maxOpens: 1,
          watermark: true,
          allowDownloads: false,
          scopes: ['viewer_only'],
        },
      });
    const outside = await share('patient@elsewhere.example');
    const inside = await share('patient@imaging.northside.demo.local');
    expect(outside.status).toBe(403);
    expect(((await outside.json()) as { error: { code: string } }).error.code).toBe('SHARE_RECIPIENT_NOT_ALLOWED');
    expect(inside.status).toBe(201);
    expect(shown).toBe('northside.demo.local, Imaging.Northside.demo.local');
  });
});
