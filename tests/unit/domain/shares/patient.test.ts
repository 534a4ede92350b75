import { describe, expect, it } from 'vitest';
import { caller } from '#tests/unit/domain/fakes.ts';
import { CLIENT, shareWorld, storeAssetFiles } from './fixtures.ts';
import {
  createPatientShare,
  getShareAccessLog,
  listPatientShares,
  revokePatientShare,
} from '#shared/domain/shares/patient-shares.ts';
import {
  patientDownload,
  patientStudy,
  requestShareCode,
  verifyShareCode,
} from '#shared/domain/shares/patient-access.ts';

const INPUT = {
  recipientEmail: 'patient@example.org',
  expiresInHours: 168,
  maxOpens: 3,
  watermark: true,
  allowDownloads: false,
  scopes: ['viewer_only' as const],
};

async function shared(w: ReturnType<typeof shareWorld>, input: Partial<typeof INPUT> = {}) {
  const created = await createPatientShare('ds1', { ...INPUT, ...input }, w.member, w.deps);
  const token = created.link.split('/p/')[1]!;
  return { ...created, token };
}

async function open(w: ReturnType<typeof shareWorld>, token: string) {
  await requestShareCode(token, CLIENT, w.deps);
  return verifyShareCode(token, w.lastCode(), CLIENT, w.deps);
}

describe('patient shares', () => {
  it('stores only the hash of the link token, and is bounded by the policy in force', async () => {
    const w = shareWorld();
    const { share, token, link } = await shared(w);
    expect(link).toBe(`https://site.test/p/${token}`);
    expect(share).toMatchObject({ status: 'ACTIVE', opens: 0, maxOpens: 3, otpRequired: true });
    const stored = [...w.deps.shares.patient.values()][0]!;
    expect(JSON.stringify(stored)).not.toContain(token);
    // Defaults: 168 hours, 3 opens, watermark on, downloads off.
    await expect(shared(w, { expiresInHours: 720 })).rejects.toMatchObject({ code: 'POLICY_LESS_RESTRICTIVE' });
    await expect(shared(w, { maxOpens: -1 })).rejects.toMatchObject({ code: 'POLICY_LESS_RESTRICTIVE' });
    await expect(shared(w, { watermark: false })).rejects.toMatchObject({ code: 'POLICY_LESS_RESTRICTIVE' });
    await expect(shared(w, { allowDownloads: true })).rejects.toMatchObject({ code: 'POLICY_LESS_RESTRICTIVE' });
    await expect(createPatientShare('ds1', INPUT, caller('GUEST'), w.deps)).rejects.toMatchObject({
      code: 'ACCESS_DENIED',
    });
  });

  it('sends a code naming the study by type and date only, and opens with it', async () => {
    const w = shareWorld();
    const { token } = await shared(w);
    const sent = await requestShareCode(token, CLIENT, w.deps);
    expect(sent.sentTo).toBe('p***@example.org');
    const mail = w.mailbox.at(-1)!;
    expect(mail.text).toContain('Follow-up imaging study of 2026-01-15');
    expect(mail.text).not.toContain('PT-0001');
    expect(mail.text).not.toContain('Brain MRI');
    const session = await verifyShareCode(token, w.lastCode(), CLIENT, w.deps);
    expect(session.watermark).toMatch(/^patient@example\.org · 2026-02-01 · id-\d+$/);
    const study = await patientStudy(session.session, CLIENT, w.deps);
    // Viewer only: the volume, not the report.
    expect(study.assets.map((a) => a.id)).toEqual(['a1']);
    await expect(patientDownload(session.session, 'a1', CLIENT, w.deps)).rejects.toMatchObject({
      code: 'ASSET_NOT_FOUND',
    });
    expect(w.notifications.items.map((n) => n.type)).toEqual(['SHARE_OPENED']);
  });

  it('locks the link after 5 wrong codes, tells the owner and alerts the hospital admins, and opens again after the lock', async () => {
    const w = shareWorld();
    const { share, token } = await shared(w);
    await requestShareCode(token, CLIENT, w.deps);
    const code = w.lastCode();
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 1; i <= 4; i++)
      await expect(verifyShareCode(token, wrong, CLIENT, w.deps)).rejects.toMatchObject({ code: 'SHARE_CODE_INVALID' });
    await expect(verifyShareCode(token, wrong, CLIENT, w.deps)).rejects.toMatchObject({ code: 'SHARE_LOCKED' });
    // Locked: even the right code is refused, and no new code is sent.
    await expect(verifyShareCode(token, code, CLIENT, w.deps)).rejects.toMatchObject({ code: 'SHARE_LOCKED' });
    await expect(requestShareCode(token, CLIENT, w.deps)).rejects.toMatchObject({ code: 'SHARE_LOCKED' });
    // The owner hears of it, and the hospital admins get a security alert (docs/domain.md#security-alerts).
    expect(w.notifications.items.map((n) => [n.type, n.userId])).toEqual([
      ['SHARE_LOCKED', w.member.userId],
      ['SHARE_LOCKED', 'user-hospital_admin'],
    ]);
    expect(w.notifications.items[1]!.description).toBe(
      `Patient link ${share.id} of dataset ds1 was locked after 5 incorrect codes.`,
    );
    const listed = await listPatientShares('ds1', w.member, w.deps);
    expect(listed.items[0]!.lockedUntil).not.toBeNull();
    // The lock (shortened to 60 s here) passes.
    w.advance(61);
    const session = await open(w, token);
    expect(session.shareId).toBe(share.id);
    const log = await getShareAccessLog('ds1', share.id, w.member, w.deps);
    expect(log.items.map((e) => e.type).sort()).toEqual(
      ['CODE_SENT', 'CODE_SENT', 'LOCKED', 'OPENED', ...Array(5).fill('WRONG_CODE')].sort(),
    );
    expect(log.items[0]!.client).toBe('203.0.113.0/24 Chrome');
  });

  it('counts each open against max opens and moves to EXHAUSTED', async () => {
    const w = shareWorld();
    const { token } = await shared(w, { maxOpens: 1 });
    const session = await open(w, token);
    const listed = await listPatientShares('ds1', w.member, w.deps);
    expect(listed.items[0]).toMatchObject({ opens: 1, status: 'EXHAUSTED' });
    // Its last open stored EXHAUSTED: the hospital's shares by status moved from ACTIVE (docs/domain.md#counters).
    expect([w.counter('patientShares_ACTIVE'), w.counter('patientShares_EXHAUSTED')]).toEqual([0, 1]);
    // The page opened with the last open keeps working; a new open answers like an unknown link.
    await expect(patientStudy(session.session, CLIENT, w.deps)).resolves.toBeDefined();
    await expect(requestShareCode(token, CLIENT, w.deps)).rejects.toMatchObject({ code: 'SHARE_LINK_INVALID' });
  });

  it("refuses a deactivated hospital's link and ends its open pages, and opens again once it is restored", async () => {
    // Arrange
    const w = shareWorld();
    const { token } = await shared(w);
    const session = await open(w, token);
    await requestShareCode(token, CLIENT, w.deps);
    const code = w.lastCode();
    // Act
    w.state.hospitalStatus = 'DEACTIVATED';
    // Assert: no code, no open, and the page already open stops on its next call.
    const deactivated = { code: 'HOSPITAL_DEACTIVATED' };
    await expect(requestShareCode(token, CLIENT, w.deps)).rejects.toMatchObject(deactivated);
    await expect(verifyShareCode(token, code, CLIENT, w.deps)).rejects.toMatchObject(deactivated);
    await expect(patientStudy(session.session, CLIENT, w.deps)).rejects.toMatchObject(deactivated);
    await expect(patientDownload(session.session, 'a1', CLIENT, w.deps)).rejects.toMatchObject(deactivated);
    // Restored: the link and the open page work again.
    w.state.hospitalStatus = 'ACTIVE';
    await expect(patientStudy(session.session, CLIENT, w.deps)).resolves.toBeDefined();
    await expect(open(w, token)).resolves.toMatchObject({ session: expect.any(String) });
  });

  it('moves to EXPIRED at its expiry and ends open pages', async () => {
    const w = shareWorld();
    const { token } = await shared(w, { expiresInHours: 24 });
    expect(w.counter('patientShares_ACTIVE')).toBe(1);
    const session = await open(w, token);
    w.advance(24 * 3600);
    // Past its expiry but not yet settled: still stored (and counted) ACTIVE, and in the count of those past expiry.
    expect(await w.deps.shares.countActivePastExpiry('h1', w.state.now)).toBe(1);
    await expect(patientStudy(session.session, CLIENT, w.deps)).rejects.toMatchObject({ code: 'SHARE_LINK_INVALID' });
    expect((await listPatientShares('ds1', w.member, w.deps)).items[0]!.status).toBe('EXPIRED');
    expect([...w.deps.shares.patient.values()][0]!.status).toBe('EXPIRED');
    // Settled once, whichever read noticed it first: ACTIVE to EXPIRED, and out of the count past expiry.
    expect([w.counter('patientShares_ACTIVE'), w.counter('patientShares_EXPIRED')]).toEqual([0, 1]);
    expect(await w.deps.shares.countActivePastExpiry('h1', w.state.now)).toBe(0);
  });

  it('revoke takes effect at once, also for an open page', async () => {
    const w = shareWorld();
    const { share, token } = await shared(w);
    const session = await open(w, token);
    await revokePatientShare('ds1', share.id, w.member, w.deps);
    await expect(patientStudy(session.session, CLIENT, w.deps)).rejects.toMatchObject({ code: 'SHARE_LINK_INVALID' });
    expect((await listPatientShares('ds1', w.member, w.deps)).items[0]!.status).toBe('REVOKED');
    expect(w.deps.audit.events.map((e) => e.action)).toContain('PATIENT_SHARE_REVOKED');
    // Counted once as revoked, however often it is revoked.
    await revokePatientShare('ds1', share.id, w.member, w.deps);
    expect([w.counter('patientShares_ACTIVE'), w.counter('patientShares_REVOKED')]).toEqual([0, 1]);
  });

  it('answers an unknown link and a revoked one alike (no enumeration)', async () => {
    const w = shareWorld();
    const { share, token } = await shared(w);
    await revokePatientShare('ds1', share.id, w.member, w.deps);
    const unknown = await requestShareCode('token-unknown-abcdefghijklmnopqrstuvwxyz', CLIENT, w.deps).catch((e) => e);
    const revoked = await requestShareCode(token, CLIENT, w.deps).catch((e) => e);
    expect([unknown.code, unknown.message]).toEqual([revoked.code, revoked.message]);
    expect(revoked.code).toBe('SHARE_LINK_INVALID');
    const verifyUnknown = await verifyShareCode(
      'token-unknown-abcdefghijklmnopqrstuvwxyz',
      '123456',
      CLIENT,
      w.deps,
    ).catch((e) => e);
    expect(verifyUnknown.code).toBe('SHARE_LINK_INVALID');
  });

  it('rate limits code requests per share and calls per client', async () => {
    const w = shareWorld();
    const { token } = await shared(w);
    for (let i = 0; i < 5; i++) await requestShareCode(token, CLIENT, w.deps);
    await expect(requestShareCode(token, CLIENT, w.deps)).rejects.toMatchObject({ code: 'SHARE_RATE_LIMITED' });
    const busy = { ...w.deps, shareLimits: { ...w.deps.shareLimits, callsPerClientPerMinute: 2 } };
    const other = { ip: '198.51.100.7', userAgent: 'Firefox/120' };
    await requestShareCode('token-unknown-abcdefghijklmnopqrstuvwxyz', other, busy).catch(() => undefined);
    await requestShareCode('token-unknown-abcdefghijklmnopqrstuvwxyz', other, busy).catch(() => undefined);
    await expect(requestShareCode(token, other, busy)).rejects.toMatchObject({ code: 'SHARE_RATE_LIMITED' });
  });

  it('sends the code by SMS to a phone-only share, and downloads only with the downloads scope', async () => {
    const w = shareWorld();
    await storeAssetFiles(w);
    await w.deps.settings.putHospitalPolicy('h1', {
      value: {
        ...(await w.deps.settings.getHospitalPolicy('h1'))!.value,
        patientShare: {
          ...(await w.deps.settings.getHospitalPolicy('h1'))!.value.patientShare,
          downloadsEnabled: true,
          allowedScopes: ['viewer_only', 'screenshots', 'downloads'],
        },
      },
      updatedAt: w.state.now,
      updatedByUserId: 'admin',
    });
    const { share, token } = await shared(w, {
      recipientEmail: undefined,
      recipientPhone: '+15551234567',
      allowDownloads: true,
      scopes: ['viewer_only', 'downloads'],
    } as never);
    const sent = await requestShareCode(token, CLIENT, w.deps);
    expect(sent.sentTo).toBe('***567');
    expect(w.sms.at(-1)!.to).toBe('+15551234567');
    const session = await verifyShareCode(token, w.lastCode(), CLIENT, w.deps);
    expect(session.allowDownloads).toBe(true);
    const study = await patientStudy(session.session, CLIENT, w.deps);
    expect(study.assets.map((a) => a.id).sort()).toEqual(['a1', 'a2']);
    await patientDownload(session.session, 'a2', CLIENT, w.deps);
    const log = await getShareAccessLog('ds1', share.id, w.member, w.deps);
    expect(log.items.map((e) => e.type)).toContain('DOWNLOAD');
  });
});
