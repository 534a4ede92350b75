import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '#shared/vocabulary/errors.ts';
import { datasetRecord } from '#tests/helpers/datasets.ts';
import { useHarness } from '#tests/helpers/harness.ts';
import { NORTHSIDE_DEMO_PROFILE } from '#tests/helpers/fixtures.ts';

/**
 * The hospital's sharing switches through the real handlers (docs/domain.md#share-policy): with external sharing off
 * and approval required, a member's share to an outside address is refused with the catalogue's words, and a share to
 * the hospital's own domain waits, unopenable and unsent, until the team's lead approves it from the queue.
 */
const ADMIN = 'admin@northside.demo.local';
const LEAD = 'lead@northside.demo.local';
const MEMBER = 'member@northside.demo.local';
const GUEST = 'guest@northside.demo.local';
const HOSPITAL = 'hosp-northside';
const TEAM = 'team-northside-neuroradiology';
const SHARE = {
  expiresInHours: 24,
  maxOpens: 1,
  watermark: true,
  allowDownloads: false,
  scopes: ['viewer_only'],
};

const h = useHarness();
let n = 0;

async function memberDataset(): Promise<string> {
  const id = `ds-policy-${++n}`;
  const now = new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
  await h.deps.datasets.create(
    datasetRecord({
      id,
      hospitalId: HOSPITAL,
      teamId: TEAM,
      ownerUserId: h.userId(MEMBER),
      createdAt: now,
      updatedAt: now,
    }),
  );
  return id;
}

async function setPolicy(fields: Record<string, unknown>) {
  const current = await h.call('GET', '/api/hospital-admin/settings', { as: ADMIN });
  const saved = await h.call('PUT', '/api/hospital-admin/settings', {
    as: ADMIN,
    body: { profile: NORTHSIDE_DEMO_PROFILE, policy: { ...current.body.policy, ...fields } },
  });
  expect(saved.status).toBe(200);
  return saved.body;
}

describe('sharing switches through the API', () => {
  it('refuses an outside recipient, and holds an inside one for the lead: no code, the link does not open', async () => {
    // Prepare: the hospital's defaults (external off, approval on), its own domain kept by the admin.
    const saved = await setPolicy({
      shareWithExternal: false,
      requireApproval: true,
      recipientDomains: ['northside.demo.local'],
    });
    expect(saved.policy.recipientDomains).toEqual(['northside.demo.local']);
    const datasetId = await memberDataset();

    // Act + assess: the privacy officer's case.
    const outside = await h.call('POST', `/api/datasets/${datasetId}/patient-shares`, {
      as: MEMBER,
      body: { ...SHARE, recipientEmail: 'someone@gmail.example' },
    });
    expect(outside.status).toBe(403);
    expect(outside.body.error).toEqual({
      code: 'SHARE_RECIPIENT_NOT_ALLOWED',
      message: ERROR_CATALOGUE.SHARE_RECIPIENT_NOT_ALLOWED.message,
    });

    const inside = await h.call('POST', `/api/datasets/${datasetId}/patient-shares`, {
      as: MEMBER,
      body: { ...SHARE, recipientEmail: 'patient@northside.demo.local' },
    });
    expect(inside.status).toBe(201);
    expect(inside.body.share.status).toBe('PENDING_APPROVAL');
    const token = String(inside.body.link).split('/p/')[1]!;
    const mails = h.mailbox.length;
    const early = await h.call('POST', '/api/patient-access/code', { body: { token } });
    expect(early.status).toBe(404);
    expect(early.body.error.code).toBe('SHARE_LINK_INVALID');
    expect(h.mailbox.length).toBe(mails);

    // The lead is told and finds it in the queue; the member has no queue.
    const bell = await h.call('GET', '/api/notifications', { as: LEAD });
    expect(bell.body.items.map((i: { type: string }) => i.type)).toContain('SHARE_APPROVAL_REQUESTED');
    const queue = await h.call('GET', '/api/shares/approvals', { as: LEAD });
    expect(queue.status).toBe(200);
    expect(queue.body.items).toEqual([
      expect.objectContaining({ id: inside.body.share.id, kind: 'PATIENT', datasetId, teamId: TEAM }),
    ]);
    expect((await h.call('GET', '/api/shares/approvals', { as: MEMBER })).status).toBe(403);

    const approved = await h.call('POST', `/api/shares/approvals/${inside.body.share.id}/approve`, { as: LEAD });
    expect(approved.status).toBe(200);
    expect(approved.body.decision).toBe('APPROVED');
    const code = await h.call('POST', '/api/patient-access/code', { body: { token } });
    expect(code.status).toBe(200);
    // The patient's code, and the member's e-mail of the decision (docs/domain.md#channels-and-frequency).
    expect(h.mailbox.slice(mails).map((m) => [m.tag, m.to])).toEqual([
      ['notification', MEMBER],
      ['patient-share-code', 'patient@northside.demo.local'],
    ]);
    // Decided once: it has left the queue.
    expect((await h.call('POST', `/api/shares/approvals/${inside.body.share.id}/refuse`, { as: ADMIN })).status).toBe(
      404,
    );
  });

  it("holds a member's team share until refused: the other team never sees the dataset", async () => {
    await setPolicy({ requireApproval: true });
    const datasetId = await memberDataset();
    const created = await h.call('POST', `/api/datasets/${datasetId}/team-shares`, {
      as: MEMBER,
      body: { teamId: 'team-northside-stroke', permissions: ['view'] },
    });
    expect(created.status).toBe(201);
    expect(created.body.items[0].status).toBe('PENDING_APPROVAL');
    const listed = await h.call('GET', `/api/datasets/${datasetId}/team-shares`, { as: MEMBER });
    expect(listed.body.items.map((s: { status: string }) => s.status)).toEqual(['PENDING_APPROVAL']);
    const refused = await h.call('POST', `/api/shares/approvals/${created.body.items[0].id}/refuse`, { as: ADMIN });
    expect(refused.status).toBe(200);
    expect((await h.call('GET', `/api/datasets/${datasetId}/team-shares`, { as: MEMBER })).body.items).toEqual([]);
    const audit = await h.call('GET', '/api/audit', { as: ADMIN, query: { action: 'SHARE_REFUSED' } });
    expect(audit.body.items.length).toBeGreaterThan(0);
  });

  it('keeps the guests of a team out once its lead turns guest access off, and lets them back in', async () => {
    const datasetId = await memberDataset();
    expect((await h.call('GET', `/api/datasets/${datasetId}`, { as: GUEST })).status).toBe(200);
    const off = await h.call('PATCH', `/api/teams/${TEAM}`, {
      as: LEAD,
      body: { settings: { allowGuestAccess: false } },
    });
    expect(off.status).toBe(200);
    expect(off.body.settings.allowGuestAccess).toBe(false);
    const refused = await h.call('GET', `/api/datasets/${datasetId}`, { as: GUEST });
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe('DATASET_NOT_FOUND');
    expect((await h.call('GET', '/api/shares/received', { as: GUEST })).body.items).toEqual([]);
    // The team's other members are not affected.
    expect((await h.call('GET', `/api/datasets/${datasetId}`, { as: MEMBER })).status).toBe(200);
    await h.call('PATCH', `/api/teams/${TEAM}`, { as: LEAD, body: { settings: { allowGuestAccess: true } } });
    expect((await h.call('GET', `/api/datasets/${datasetId}`, { as: GUEST })).status).toBe(200);
  });
});

describe('the team-share permission "export" may be given now that the export reads it', () => {
  it('creates a share that gives it, and lists it with it', async () => {
    await setPolicy({ requireApproval: false });
    const datasetId = await memberDataset();
    const granted = await h.call('POST', `/api/datasets/${datasetId}/team-shares`, {
      as: LEAD,
      body: { teamId: 'team-northside-stroke', permissions: ['view', 'export'] },
    });
    expect(granted.status).toBe(201);
    const listed = await h.call('GET', `/api/datasets/${datasetId}/team-shares`, { as: LEAD });
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((s: { permissions: string[] }) => s.permissions)).toEqual([['view', 'export']]);
  });
});
