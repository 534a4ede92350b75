import { describe, expect, it } from 'vitest';
import { createDataset } from '#shared/domain/datasets/create-dataset.ts';
import { openUploadSession } from '#shared/domain/uploads/open-upload-session.ts';
import {
  BYTES_PER_GB,
  checkShareAgainstPolicy,
  checkUploadAgainstPolicy,
  crossedThreshold,
} from '#shared/domain/settings/enforce.ts';
import {
  getHospitalSettings,
  policyFor,
  setHospitalSettings,
  setSystemPolicy,
  setTeamPolicy,
} from '#shared/domain/settings/policies.ts';
import { RETENTION_ACTOR, RETENTION_PAGE, startRetentionJobs } from '#shared/domain/settings/retention.ts';
import { deleteDataset } from '#shared/domain/datasets/delete-dataset.ts';
import { setLegalHold } from '#shared/domain/datasets/legal-hold.ts';
import {
  getMyProfile,
  getNotificationPreferences,
  setNotificationPreferences,
  startAvatarUpload,
  updateMyProfile,
} from '#shared/domain/settings/me-settings.ts';
import { runSlotLimit } from '#shared/domain/pipeline/run-slots.ts';
import {
  DEFAULT_HOSPITAL_POLICY,
  DEFAULT_NOTIFICATION_PREFERENCES,
  DEFAULT_SYSTEM_POLICY,
  type Policy,
} from '#shared/schemas/api/policies.ts';
import { fileKeyOf } from '#tests/helpers/file-keys.ts';
import { caller, NEW_DATASET, ports, runStartedJobs } from '#tests/unit/domain/fakes.ts';
import { NORTHSIDE_PROFILE } from '#tests/helpers/fixtures.ts';

const member = caller('TEAM_MEMBER');
const admin = caller('HOSPITAL_ADMIN');
const lead = caller('TEAM_LEAD');
const PROFILE = NORTHSIDE_PROFILE;
const withPolicy = (change: (p: Policy) => Policy) => change(structuredClone(DEFAULT_HOSPITAL_POLICY));
const capped = (storageCapGB: number) =>
  withPolicy((p) => ({ ...p, storageCompute: { ...p.storageCompute, storageCapGB } }));
const teams = { getTeam: async (_h: string, t: string) => (t === 't1' ? { id: 't1' } : undefined) };

async function upload(p: ReturnType<typeof ports>, files: { sizeBytes: number; format?: 'dcm' | 'nii' }[]) {
  const d = await createDataset(NEW_DATASET, member, p);
  return openUploadSession(
    d.id,
    files.map((f, i) => ({ fileKey: fileKeyOf(`f${i}`), ...f })),
    member,
    p,
  );
}

describe('storage cap, file size and formats when an upload session opens', () => {
  it('refuses before any byte when declared bytes plus storage in use pass the cap, with the catalogue error', async () => {
    const p = ports();
    p.settings.storage.set('h1', 0.95 * BYTES_PER_GB);
    await p.settings.putHospitalPolicy('h1', { value: capped(1), updatedAt: 'x', updatedByUserId: 'u' });
    await expect(upload(p, [{ sizeBytes: 0.1 * BYTES_PER_GB }])).rejects.toMatchObject({
      code: 'STORAGE_CAP_EXCEEDED',
      values: { cap: 1, used: 1 },
    });
    expect(p.uploads.sessions.size).toBe(0);
    expect(p.objects.objects.size).toBe(0);
  });

  it('reads a missing storage counter as 0', async () => {
    const p = ports();
    await p.settings.putHospitalPolicy('h1', { value: capped(1), updatedAt: 'x', updatedByUserId: 'u' });
    await expect(upload(p, [{ sizeBytes: 1000 }])).resolves.toMatchObject({ status: 'OPEN' });
  });

  it("refuses a file over the team's max file size and a format the policy does not allow", async () => {
    const p = ports();
    await p.settings.putTeamPolicy('h1', 't1', {
      value: { maxFileSizeMB: 1, allowedFormats: ['dcm', 'dicom'] },
      updatedAt: 'x',
      updatedByUserId: 'u',
    });
    await expect(upload(p, [{ sizeBytes: 2 * 1024 * 1024 }])).rejects.toMatchObject({
      code: 'FILE_TOO_LARGE',
      values: { n: 1024 * 1024 },
    });
    await expect(upload(p, [{ sizeBytes: 10, format: 'nii' }])).rejects.toMatchObject({
      code: 'FILE_TYPE_NOT_ALLOWED',
      values: { formats: 'dcm, dicom' },
    });
    await expect(upload(p, [{ sizeBytes: 10, format: 'dcm' }])).resolves.toMatchObject({ status: 'OPEN' });
  });

  it("tells the hospital's active admins who keep usage thresholds on when an upload crosses a threshold", async () => {
    const p = ports();
    const admin = (id: string, status: 'ACTIVE' | 'DISABLED') => ({
      id,
      hospitalId: 'h1',
      email: `${id}@northside.test`,
      firstName: id,
      lastName: 'Admin',
      role: 'HOSPITAL_ADMIN' as const,
      status,
      teamId: null,
      departmentId: null,
      permissions: [],
      createdAt: 'x',
    });
    await p.directory.putUser(admin('a1', 'ACTIVE'));
    await p.directory.putUser(admin('a2', 'ACTIVE'));
    await p.directory.putUser(admin('a3', 'DISABLED'));
    await p.settings.putNotificationPreferences('h1', 'a2', {
      ...DEFAULT_NOTIFICATION_PREFERENCES,
      usageThresholds: false,
    });
    await p.settings.putHospitalPolicy('h1', { value: capped(10), updatedAt: 'x', updatedByUserId: 'u' });
    p.settings.storage.set('h1', 7.5 * BYTES_PER_GB);
    await upload(p, [{ sizeBytes: 0.3 * BYTES_PER_GB }, { sizeBytes: 0.3 * BYTES_PER_GB }]);
    const sent = () => p.notifications.items.filter((n) => n.type.startsWith('STORAGE_'));
    expect(sent().map((n) => [n.userId, n.type, n.description])).toEqual([
      ['a1', 'STORAGE_WARNING', '81% of the storage cap of 10 GB is in use.'],
    ]);
    p.settings.storage.set('h1', 8.5 * BYTES_PER_GB);
    await upload(p, [{ sizeBytes: 0.3 * BYTES_PER_GB }, { sizeBytes: 0.3 * BYTES_PER_GB }]);
    expect(sent().map((n) => n.type)).toEqual(['STORAGE_WARNING', 'STORAGE_CRITICAL']);
    await upload(p, [{ sizeBytes: 1000 }]);
    expect(sent()).toHaveLength(2);
  });

  it('checks in a pure function too', () => {
    expect(() => checkUploadAgainstPolicy([{ sizeBytes: 1 }], capped(1), BYTES_PER_GB)).toThrow();
    expect(crossedThreshold(0, 10 * BYTES_PER_GB, capped(10))).toBe('STORAGE_CRITICAL');
  });
});

describe('patient-share defaults as limits for the sharing flow', () => {
  const share = {
    otpRequired: true,
    expiresInHours: 168,
    maxOpens: 3,
    watermark: true,
    allowDownloads: false,
    scopes: ['viewer_only'] as const,
  };
  it('accepts a share as strict as the policy or stricter, and refuses a looser one naming the item', () => {
    expect(() => checkShareAgainstPolicy(share, DEFAULT_HOSPITAL_POLICY)).not.toThrow();
    expect(() =>
      checkShareAgainstPolicy({ ...share, expiresInHours: 24, maxOpens: 1 }, DEFAULT_HOSPITAL_POLICY),
    ).not.toThrow();
    expect(() => checkShareAgainstPolicy({ ...share, expiresInHours: 720 }, DEFAULT_HOSPITAL_POLICY)).toThrow(
      expect.objectContaining({
        code: 'POLICY_LESS_RESTRICTIVE',
        values: { field: 'Share expiry', level: 'hospital defaults' },
      }),
    );
    expect(() => checkShareAgainstPolicy({ ...share, maxOpens: -1 }, DEFAULT_HOSPITAL_POLICY)).toThrow(
      expect.objectContaining({ values: expect.objectContaining({ field: 'Max opens' }) }),
    );
    expect(() =>
      checkShareAgainstPolicy({ ...share, allowDownloads: true, scopes: ['downloads'] }, DEFAULT_HOSPITAL_POLICY),
    ).toThrow(expect.objectContaining({ values: expect.objectContaining({ field: 'Downloads' }) }));
  });
});

describe('queue concurrency', () => {
  it("takes the hospital's run slots from its resolved policy, under the system maximum", async () => {
    const p = ports();
    expect(await runSlotLimit('h1', p)).toBe(10);
    await p.settings.putHospitalPolicy('h1', {
      value: withPolicy((x) => ({
        ...x,
        storageCompute: { ...x.storageCompute, computeThrottles: { queueConcurrency: 2 } },
      })),
      updatedAt: 'x',
      updatedByUserId: 'u',
    });
    expect(await runSlotLimit('h1', p)).toBe(2);
    await p.settings.putSystemPolicy({
      value: {
        ...DEFAULT_SYSTEM_POLICY,
        storageCompute: { ...DEFAULT_SYSTEM_POLICY.storageCompute, computeThrottles: { queueConcurrency: 1 } },
      },
      updatedAt: 'x',
      updatedByUserId: 'u',
    });
    expect(await runSlotLimit('h1', p)).toBe(1);
  });
});

describe('data retention', () => {
  const NOW = '2026-02-01T10:00:00.000Z';
  const setUp = async () => {
    const p = ports();
    const old = await createDataset(NEW_DATASET, member, p);
    const young = await createDataset(NEW_DATASET, member, p);
    const busy = await createDataset(NEW_DATASET, member, p);
    const held = await createDataset(NEW_DATASET, member, p);
    const age = (id: string, days: number, status?: string) => {
      const row = p.datasets.rows.get(`h1/${id}`)!;
      p.datasets.rows.set(`h1/${id}`, {
        ...row,
        createdAt: new Date(Date.parse(NOW) - days * 86_400_000).toISOString(),
        ...(status ? { status: status as typeof row.status } : {}),
      });
    };
    age(old.id, 40);
    age(young.id, 10);
    age(busy.id, 40, 'PROCESSING');
    age(held.id, 40);
    await setLegalHold(held.id, { on: true, reason: 'Litigation 42' }, lead, p);
    await p.objects.put('assets', `h1/${old.id}/volume.nii`, new Uint8Array(3));
    await p.settings.putTeamPolicy('h1', 't1', {
      value: { dataRetentionDays: 30 },
      updatedAt: 'x',
      updatedByUserId: 'u',
    });
    return { p, old, young, busy, held };
  };

  /** The day's schedule and its jobs run to their end; answers each dataset's result by its id. */
  const retention = async (p: ReturnType<typeof ports>) => {
    const { started } = await startRetentionJobs(p);
    await runStartedJobs(p);
    const results = new Map<string, { outcome: string; code: string | null; ref: string | null }>();
    for (const ref of started) for (const r of (await p.jobs.listResults(ref, 500)).items) results.set(r.subject, r);
    return { jobs: await Promise.all(started.map((ref) => p.jobs.get(ref))), results };
  };

  it("moves datasets older than their team's retention to the recycle bin, audited, and keeps the rest and the held", async () => {
    const { p, old, young, busy, held } = await setUp();

    const run = await retention(p);

    expect(run.jobs).toMatchObject([{ kind: 'RETENTION', hospitalId: 'h1', status: 'SUCCEEDED', processed: 3 }]);
    expect(Object.fromEntries(run.results)).toEqual({
      [old.id]: expect.objectContaining({ outcome: 'SUCCEEDED', ref: 'recycle-bin' }),
      [busy.id]: expect.objectContaining({ outcome: 'SKIPPED', code: 'INVALID_STATE' }),
      [held.id]: expect.objectContaining({ outcome: 'SKIPPED', code: 'LEGAL_HOLD' }),
    });
    expect(await p.datasets.get('h1', old.id)).toBeUndefined();
    expect(await p.datasets.getInBin('h1', old.id)).toMatchObject({ deletionReason: 'retention' });
    expect(await p.datasets.get('h1', young.id)).toBeDefined();
    expect(await p.datasets.get('h1', held.id)).toBeDefined();
    // In the bin nothing is removed yet: a hospital admin may still restore it.
    expect(p.objects.objects.size).toBe(1);
    expect(p.audit.events.at(-1)).toMatchObject({
      action: 'DATASET_RETENTION_EXPIRED',
      datasetId: old.id,
      ...RETENTION_ACTOR,
      details: { retentionDays: 30, reason: 'retention' },
    });
  });

  it('purges the bin 30 days later with the objects, once, and never a dataset put under hold', async () => {
    const { p, old, held } = await setUp();
    await retention(p);
    const day = (n: number) => {
      p.clock.now = () => new Date(Date.parse(NOW) + n * 86_400_000).toISOString();
      return p;
    };
    const purged = (run: Awaited<ReturnType<typeof retention>>) =>
      [...run.results].filter(([, r]) => r.ref === 'purged').map(([id]) => id);

    expect(purged(await retention(day(29)))).toEqual([]);
    expect(p.objects.objects.size).toBe(1);
    expect(purged(await retention(day(31)))).toEqual([old.id]);
    expect(p.datasets.rows.has(`h1/${old.id}`)).toBe(false);
    expect(p.objects.objects.size).toBe(0);
    expect(p.audit.events.filter((e) => e.action === 'DATASET_PURGED')).toMatchObject([
      { datasetId: old.id, ...RETENTION_ACTOR, details: { reason: 'retention', objectsDeleted: 1 } },
    ]);
    // Run again: nothing left to purge, and the held dataset is still there.
    expect(purged(await retention(day(32)))).toEqual([]);
    expect(await p.datasets.get('h1', held.id)).toBeDefined();
  });

  it('purges a bin longer than a chunk, every dataset once, a chunk at a time', async () => {
    const p = ports();
    const ids: string[] = [];
    for (let i = 0; i < 2 * RETENTION_PAGE + 3; i++) {
      const d = await createDataset(NEW_DATASET, member, p);
      await deleteDataset(d.id, {}, lead, p);
      ids.push(d.id);
    }

    const run = await retention({ ...p, clock: { now: () => '2026-04-01T00:00:00.000Z' } });

    expect(run.jobs).toMatchObject([{ status: 'SUCCEEDED', processed: ids.length, succeeded: ids.length }]);
    expect(run.jobs[0]!.chunks).toBeGreaterThan(3);
    expect(new Set(run.results.keys())).toEqual(new Set(ids));
    expect(p.audit.events.filter((e) => e.action === 'DATASET_PURGED')).toHaveLength(ids.length);
  });
});

describe('levels: who sets what, never looser than above, audited', () => {
  it('lets a hospital admin save profile and policy, refusing one looser than the system maximums', async () => {
    const p = ports();
    const loose = withPolicy((x) => ({ ...x, maxFileSizeMB: 4096 }));
    await expect(setHospitalSettings({ profile: PROFILE, policy: loose }, admin, p)).rejects.toMatchObject({
      code: 'POLICY_LESS_RESTRICTIVE',
      values: { field: 'Max file size', level: 'system maximums' },
    });
    const saved = await setHospitalSettings({ profile: PROFILE, policy: capped(100) }, admin, p);
    expect(saved.policy.storageCompute.storageCapGB).toBe(100);
    expect(saved.profile).toEqual(PROFILE);
    expect(p.audit.events.at(-1)).toMatchObject({
      action: 'HOSPITAL_SETTINGS_CHANGED',
      details: { before: { policy: DEFAULT_HOSPITAL_POLICY }, after: { policy: capped(100) } },
    });
    await expect(getHospitalSettings(lead, p)).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
  });

  it('lets only the super admin set system maximums', async () => {
    const p = ports();
    await expect(setSystemPolicy(DEFAULT_SYSTEM_POLICY, admin, p)).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    await setSystemPolicy(DEFAULT_SYSTEM_POLICY, caller('SUPER_ADMIN'), p);
    expect(p.audit.events.at(-1)).toMatchObject({ action: 'SYSTEM_POLICY_CHANGED' });
  });

  it("lets the team's lead override only more restrictively; a member may not; another team is not found", async () => {
    const p = ports();
    const deps = { ...p, teams };
    await expect(setTeamPolicy(lead, 't1', { patientShare: { defaultExpiryHours: 720 } }, deps)).rejects.toMatchObject({
      code: 'POLICY_LESS_RESTRICTIVE',
      values: { field: 'Share expiry', level: 'hospital defaults' },
    });
    const saved = await setTeamPolicy(lead, 't1', { patientShare: { defaultExpiryHours: 24 } }, deps);
    expect(saved.effective.patientShare.defaultExpiryHours).toBe(24);
    expect((await policyFor('h1', 't1', p)).patientShare.defaultExpiryHours).toBe(24);
    expect(p.audit.events.at(-1)).toMatchObject({
      action: 'TEAM_POLICY_CHANGED',
      details: { before: {}, after: { patientShare: { defaultExpiryHours: 24 } } },
    });
    await expect(setTeamPolicy(member, 't1', {}, deps)).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    await expect(setTeamPolicy(lead, 't2', {}, deps)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('lets only a hospital admin shorten retention; a lead may keep or lengthen it', async () => {
    const p = ports();
    const deps = { ...p, teams };
    // Shorter is "stricter", yet it deletes the team's data: a lead is refused in the catalogue's words.
    await expect(setTeamPolicy(lead, 't1', { dataRetentionDays: 1 }, deps)).rejects.toMatchObject({
      code: 'RETENTION_SHORTENING_DENIED',
    });
    expect(await p.settings.getTeamPolicy('h1', 't1')).toBeUndefined();
    await setTeamPolicy(admin, 't1', { dataRetentionDays: 90 }, deps);
    expect((await policyFor('h1', 't1', p)).dataRetentionDays).toBe(90);
    await expect(setTeamPolicy(lead, 't1', { dataRetentionDays: 60 }, deps)).rejects.toMatchObject({
      code: 'RETENTION_SHORTENING_DENIED',
    });
    // Keeping it while changing another field, lengthening it, or dropping the override are all fine.
    await setTeamPolicy(lead, 't1', { dataRetentionDays: 90, maxFileSizeMB: 100 }, deps);
    await setTeamPolicy(lead, 't1', { dataRetentionDays: 120 }, deps);
    await setTeamPolicy(lead, 't1', {}, deps);
    expect((await policyFor('h1', 't1', p)).dataRetentionDays).toBe(365);
    await expect(setTeamPolicy(lead, 't2', {}, deps)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe("the caller's own settings", () => {
  it('keeps notification preferences (defaults until changed), audited', async () => {
    const p = ports();
    expect(await getNotificationPreferences(member, p)).toEqual(DEFAULT_NOTIFICATION_PREFERENCES);
    const changed = { ...DEFAULT_NOTIFICATION_PREFERENCES, sms: true, frequency: 'daily' as const };
    await setNotificationPreferences(changed, member, p);
    expect(await getNotificationPreferences(member, p)).toEqual(changed);
    expect(p.audit.events.at(-1)).toMatchObject({ action: 'NOTIFICATION_PREFERENCES_CHANGED' });
  });

  it('updates the profile and signs the avatar upload within the 2MB limit', async () => {
    const p = ports();
    p.settings.profiles.set('h1/user-team_member', { email: 'm@x.test', firstName: 'Pat', lastName: 'M' });
    await updateMyProfile({ phone: '+1 555 0100', specialization: 'MR Technologist' }, member, p);
    await expect(
      startAvatarUpload({ contentType: 'image/png', sizeBytes: 3 * 1024 * 1024 }, member, p),
    ).rejects.toMatchObject({
      code: 'AVATAR_INVALID',
    });
    const signed = await startAvatarUpload({ contentType: 'image/png', sizeBytes: 1000 }, member, p);
    expect(signed.uploadUrl).toContain('h1/_avatars/user-team_member');
    const profile = await getMyProfile(member, p);
    expect(profile).toMatchObject({ phone: '+1 555 0100', specialization: 'MR Technologist', firstName: 'Pat' });
    expect(profile.avatarUrl).toContain('h1/_avatars/user-team_member');
  });
});
