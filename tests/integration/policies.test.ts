import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '#shared/definitions/table/keys.ts';
import { DEFAULT_NOTIFICATION_PREFERENCES } from '#shared/schemas/api/policies.ts';
import { fileKeyOf } from '#tests/helpers/file-keys.ts';
import { newDatasetBody } from '#tests/helpers/datasets.ts';
import { useHarness } from '#tests/helpers/harness.ts';
import { claimsFor } from './datasets-harness.ts';
import { runRetention } from './retention-run.ts';
import { NORTHSIDE_DEMO_PROFILE } from '#tests/helpers/fixtures.ts';

/**
 * Policies through the real handlers and the DynamoDB adapters (docs/domain.md#policies-and-inheritance): an admin
 * lowers the storage cap below what is in use and an upload is refused before any byte; a lead may only tighten the
 * team's share settings; a member's notification preferences persist.
 */
const ADMIN = 'admin@northside.demo.local';
const LEAD = 'lead@northside.demo.local';
const MEMBER = 'member@northside.demo.local';
const TEAM = 'team-northside-neuroradiology';
const NEW_DATASET = newDatasetBody();
/** Just under 80% of 2.5 GB: the next 1000 bytes cross the warning threshold. */
const USED = 2 * 1024 ** 3 - 500;
const h = useHarness();

describe('policies through the API', () => {
  it('refuses an upload over a lowered storage cap with the catalogue message, and notifies at the warning', async () => {
    // Another part of the system counts the bytes stored: set the counter as it would.
    await h.table.doc.send(
      new UpdateCommand({
        TableName: h.table.tableName,
        Key: keys.hospital('hosp-northside'),
        UpdateExpression: 'SET storageUsedBytes = :b',
        ExpressionAttributeValues: { ':b': USED },
      }),
    );
    const current = await h.call('GET', '/api/hospital-admin/settings', { as: ADMIN });
    expect(current.status).toBe(200);
    expect(current.body.storageUsedBytes).toBe(USED);
    const policy = current.body.policy;
    const lowered = { ...policy, storageCompute: { ...policy.storageCompute, storageCapGB: 1 } };
    const saved = await h.call('PUT', '/api/hospital-admin/settings', {
      as: ADMIN,
      body: { profile: NORTHSIDE_DEMO_PROFILE, policy: lowered },
    });
    expect(saved.status).toBe(200);

    const dataset = await h.call('POST', '/api/datasets', { as: MEMBER, body: NEW_DATASET });
    const refused = await h.call('POST', `/api/datasets/${dataset.body.id}/upload/session`, {
      as: MEMBER,
      body: { files: [{ fileKey: fileKeyOf('a/1.dcm'), sizeBytes: 1000 }] },
    });
    expect(refused.status).toBe(413);
    expect(refused.body.error).toMatchObject({
      code: 'STORAGE_CAP_EXCEEDED',
      message: 'This upload would exceed the storage cap of 1 GB (2 GB in use).',
    });
    expect((await h.call('GET', `/api/datasets/${dataset.body.id}`, { as: MEMBER })).body.status).toBe('CREATED');

    const raised = { ...policy, storageCompute: { ...policy.storageCompute, storageCapGB: 2.5 } };
    expect(
      (
        await h.call('PUT', '/api/hospital-admin/settings', {
          as: ADMIN,
          body: { profile: NORTHSIDE_DEMO_PROFILE, policy: raised },
        })
      ).status,
    ).toBe(200);
    const opened = await h.call('POST', `/api/datasets/${dataset.body.id}/upload/session`, {
      as: MEMBER,
      body: { files: [{ fileKey: fileKeyOf('a/1.dcm'), sizeBytes: 1000 }] },
    });
    expect(opened.status).toBe(201);
    // The hospital admin's bell has it (their preferences keep usage thresholds on by default).
    const inbox = await h.call('GET', '/api/notifications', { as: ADMIN });
    expect(inbox.body.items.filter((n: { type: string }) => n.type.startsWith('STORAGE_'))).toMatchObject([
      { type: 'STORAGE_WARNING', read: false, href: '/hospital-admin/usage' },
    ]);
  });

  it("refuses the hospital's users a token without a second factor once its policy requires two-factor", async () => {
    const current = await h.call('GET', '/api/hospital-admin/settings', { as: ADMIN });
    const policy = current.body.policy;
    const withTwoFactor = (required: boolean) => ({
      as: ADMIN,
      body: {
        profile: NORTHSIDE_DEMO_PROFILE,
        policy: { ...policy, security: { ...policy.security, twoFactorRequired: required } },
      },
    });
    expect((await h.call('PUT', '/api/hospital-admin/settings', withTwoFactor(true))).status).toBe(200);

    const refused = await h.call('GET', '/api/me', { as: MEMBER });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('MFA_REQUIRED');
    const withTotp = { ...claimsFor(h.user(MEMBER)), mfa: 'totp' };
    expect((await h.call('GET', '/api/me', { claims: withTotp })).status).toBe(200);
    // The other hospital's policy is its own.
    expect((await h.call('GET', '/api/me', { as: 'member@lakeview.demo.local' })).status).toBe(200);

    const adminWithTotp = { ...claimsFor(h.user(ADMIN)), mfa: 'totp' };
    const off = await h.call('PUT', '/api/hospital-admin/settings', {
      ...withTwoFactor(false),
      as: undefined,
      claims: adminWithTotp,
    });
    expect(off.status).toBe(200);
    expect((await h.call('GET', '/api/me', { as: MEMBER })).status).toBe(200);
  });

  it('refuses a hospital policy looser than the system maximums, naming the field', async () => {
    const current = await h.call('GET', '/api/hospital-admin/settings', { as: ADMIN });
    const refused = await h.call('PUT', '/api/hospital-admin/settings', {
      as: ADMIN,
      body: { profile: NORTHSIDE_DEMO_PROFILE, policy: { ...current.body.policy, maxFileSizeMB: 100_000 } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe('Max file size may not be less restrictive than the system maximums.');
  });

  it('lets a lead tighten the share expiry but not loosen it', async () => {
    const looser = await h.call('PUT', `/api/teams/${TEAM}/policy`, {
      as: LEAD,
      body: { overrides: { patientShare: { defaultExpiryHours: 720 } } },
    });
    expect(looser.status).toBe(400);
    expect(looser.body.error).toMatchObject({
      code: 'POLICY_LESS_RESTRICTIVE',
      message: 'Share expiry may not be less restrictive than the hospital defaults.',
    });
    const tighter = await h.call('PUT', `/api/teams/${TEAM}/policy`, {
      as: LEAD,
      body: { overrides: { patientShare: { defaultExpiryHours: 24 } } },
    });
    expect(tighter.status).toBe(200);
    expect(tighter.body.effective.patientShare.defaultExpiryHours).toBe(24);
  });

  it("moves to the recycle bin, in the scheduled job, a dataset older than its team's retention set by a hospital admin, and keeps a younger one", async () => {
    const old = await h.call('POST', '/api/datasets', { as: MEMBER, body: NEW_DATASET });
    const young = await h.call('POST', '/api/datasets', { as: MEMBER, body: NEW_DATASET });
    await h.table.doc.send(
      new UpdateCommand({
        TableName: h.table.tableName,
        Key: keys.dataset('hosp-northside', old.body.id),
        UpdateExpression: 'SET createdAt = :at',
        ExpressionAttributeValues: { ':at': new Date(Date.now() - 10 * 86_400_000).toISOString() },
      }),
    );
    const current = await h.call('GET', `/api/teams/${TEAM}/policy`, { as: LEAD });
    // A lead may not shorten the team's retention (it deletes teammates' data): only a hospital admin may.
    for (const days of [1, 5]) {
      const overrides = { ...current.body.overrides, dataRetentionDays: days };
      const refused = await h.call('PUT', `/api/teams/${TEAM}/policy`, { as: LEAD, body: { overrides } });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toEqual({
        code: 'RETENTION_SHORTENING_DENIED',
        message: 'Only a hospital admin may shorten data retention.',
      });
    }
    const overrides = { ...current.body.overrides, dataRetentionDays: 5 };
    expect((await h.call('PUT', `/api/teams/${TEAM}/policy`, { as: ADMIN, body: { overrides } })).status).toBe(200);

    const run = await runRetention(h);
    expect(run.resultOf('hosp-northside', old.body.id)).toMatchObject({ outcome: 'SUCCEEDED', ref: 'recycle-bin' });
    expect(run.resultOf('hosp-northside', young.body.id)).toBeUndefined();

    expect((await h.call('GET', `/api/datasets/${old.body.id}`, { as: MEMBER })).status).toBe(404);
    expect((await h.call('GET', `/api/datasets/${young.body.id}`, { as: MEMBER })).status).toBe(200);
    const bin = await h.call('GET', '/api/datasets/recycle-bin', { as: ADMIN });
    expect(bin.body.items.find((d: { id: string }) => d.id === old.body.id)).toMatchObject({
      deletionReason: 'retention',
      deletedByName: 'Data retention',
    });
    // The refused read after the deletion is audited too (outcome DENIED), so look for the job's event by action.
    const history = await h.deps.audit.listForDataset('hosp-northside', old.body.id);
    expect(history.find((e) => e.action === 'DATASET_RETENTION_EXPIRED')).toMatchObject({
      actorName: 'Data retention',
    });
  });

  it("keeps a member's notification preferences", async () => {
    const changed = { ...DEFAULT_NOTIFICATION_PREFERENCES, sms: true, teamActivity: true, frequency: 'weekly' };
    expect((await h.call('PUT', '/api/me/notification-preferences', { as: MEMBER, body: changed })).status).toBe(200);
    expect((await h.call('GET', '/api/me/notification-preferences', { as: MEMBER })).body).toEqual(changed);
    expect((await h.call('GET', '/api/me/notification-preferences', { as: LEAD })).body).toEqual(
      DEFAULT_NOTIFICATION_PREFERENCES,
    );
  });

  it('changes the profile fields sent and keeps the rest', async () => {
    const saved = await h.call('PUT', '/api/me/profile', { as: MEMBER, body: { phone: '+1 312 555 0142' } });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ firstName: 'Taylor', lastName: 'Brooks', phone: '+1 312 555 0142' });
    const tooBig = await h.call('POST', '/api/me/avatar', {
      as: MEMBER,
      body: { contentType: 'image/png', sizeBytes: 3 * 1024 * 1024 },
    });
    expect(tooBig.body.error.code).toBe('AVATAR_INVALID');
    const webp = await h.call('POST', '/api/me/avatar', {
      as: MEMBER,
      body: { contentType: 'image/webp', sizeBytes: 10 },
    });
    expect(webp.body.error.code).toBe('AVATAR_INVALID');
  });
});
