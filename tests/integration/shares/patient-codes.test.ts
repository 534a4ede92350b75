import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PatientShareRecord } from '#shared/domain/shares/ports.ts';
import { newDatasetBody } from '#tests/helpers/datasets.ts';
import { useHarness } from '#tests/helpers/harness.ts';

/**
 * One-time codes of patient shares through the public routes (docs/domain.md#patient-shares): a code is stored only as
 * a slow hash under a random salt of its own, so the same six digits are stored differently on two shares, and
 * recovering a code from a stolen item is a search of the million codes with the slow hash, not a table lookup.
 */
const HOSPITAL = 'hosp-northside';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const h = useHarness();
let n = 0;

/**
 * A usable patient share planted in the table (no code yet) on a dataset made through the API, since a link opens only
 * while its dataset exists (docs/domain.md#recycle-bin); returns its id and the link's token.
 */
async function plantShare(): Promise<{ id: string; token: string }> {
  const created = await h.call('POST', '/api/datasets', { as: 'member@northside.demo.local', body: newDatasetBody() });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = `pshare-codes-${++n}`;
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  await h.deps.shares.putPatientShare({
    id,
    hospitalId: HOSPITAL,
    datasetId: created.body.id as string,
    createdByUserId: h.userId('member@northside.demo.local'),
    createdByName: 'Taylor Brooks',
    patientAlias: 'PT-000000000000',
    // One of the hospital's own domains, which the share policy admits by default (docs/domain.md#share-policy).
    recipientEmail: `patient-${n}@northside.demo.local`,
    recipientPhone: null,
    otpRequired: true,
    expiresAt: new Date(now + 3600_000).toISOString(),
    maxOpens: 10,
    opens: 0,
    allowExport: false,
    watermark: true,
    scopes: ['viewer_only'],
    status: 'ACTIVE',
    createdAt: new Date(now).toISOString(),
    tokenHash: sha256(token),
    failedAttempts: 0,
    studyType: 'Diagnostic',
    studyDate: '2026-01-01',
    version: 1,
  });
  return { id, token };
}

/** Asks for a code through the public route; returns the code the patient received and the share as stored. */
async function requestCode(share: { id: string; token: string }) {
  const sent = await h.call('POST', '/api/patient-access/code', { body: { token: share.token } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const code = /\b(\d{6})\b/.exec(h.mailbox.at(-1)!.text)![1]!;
  const stored = (await h.deps.shares.findPatientShareByTokenHash(sha256(share.token)))!;
  return { code, stored };
}

const verify = (token: string, code: string) => h.call('POST', '/api/patient-access/verify', { body: { token, code } });

describe('patient share codes are stored salted and slow', () => {
  it('stores the same code differently on two shares, under a salt of each share, never as SHA-256 of id and code', async () => {
    const [a, b] = [await plantShare(), await plantShare()];
    const first = await requestCode(a);
    const second = await requestCode(b);
    const stored: PatientShareRecord[] = [first.stored, second.stored];
    expect(stored.map((s) => s.codeSalt)).toEqual([expect.any(String), expect.any(String)]);
    expect(stored[0]!.codeSalt).not.toBe(stored[1]!.codeSalt);
    // a's six digits as b would store them, under b's salt: another hash, so no table computed once serves both.
    expect(await h.deps.shareCodes.hash(b.id, first.code, stored[1]!.codeSalt!)).not.toBe(stored[0]!.codeHash);
    expect(await h.deps.shareCodes.hash(a.id, first.code, stored[0]!.codeSalt!)).toBe(stored[0]!.codeHash);
    // The former form, an unsalted SHA-256 of "<share>:<code>", was a lookup in a table of a million entries.
    expect(stored[0]!.codeHash).not.toBe(sha256(`${a.id}:${first.code}`));
    // A new code gets a new salt.
    const again = await requestCode(a);
    expect(again.stored.codeSalt).not.toBe(stored[0]!.codeSalt);
    expect((await verify(a.token, again.code)).status).toBe(200);
  });

  it('refuses a wrong code, and a right one carried over to another share', async () => {
    const [a, b] = [await plantShare(), await plantShare()];
    const { code } = await requestCode(a);
    await requestCode(b);
    const wrong = code === '000000' ? '000001' : '000000';
    const refused = await verify(a.token, wrong);
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('SHARE_CODE_INVALID');
    const sameDigitsElsewhere = await h.call('POST', '/api/patient-access/verify', { body: { token: b.token, code } });
    const stored = (await h.deps.shares.findPatientShareByTokenHash(sha256(b.token)))!;
    // Unless b's own code happens to be the same six digits, a's code opens nothing of b.
    if (stored.codeHash !== undefined) expect(sameDigitsElsewhere.body.error?.code).toBe('SHARE_CODE_INVALID');
    expect((await verify(a.token, code)).status).toBe(200);
  });

  it('treats a code stored in the former unsalted form as expired: the patient asks for a new one', async () => {
    const share = await plantShare();
    const stored = (await h.deps.shares.findPatientShareByTokenHash(sha256(share.token)))!;
    await h.deps.shares.updatePatientShare(
      stored,
      { codeHash: sha256(`${share.id}:123456`), codeExpiresAt: new Date(Date.now() + 600_000).toISOString() },
      stored.version,
    );
    expect((await verify(share.token, '123456')).body.error.code).toBe('SHARE_CODE_INVALID');
    const { code } = await requestCode(share);
    expect((await verify(share.token, code)).status).toBe(200);
  });
});
