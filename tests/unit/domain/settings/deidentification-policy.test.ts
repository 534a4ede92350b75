import { describe, expect, it } from 'vitest';
import { createDataset } from '#shared/domain/datasets/create-dataset.ts';
import { updateDataset } from '#shared/domain/datasets/update-dataset.ts';
import { ValidationError } from '#shared/domain/errors.ts';
import {
  getDeidentificationPolicy,
  setDeidentificationPolicy,
} from '#shared/domain/settings/deidentification-policy.ts';
import { DEFAULT_DEIDENTIFICATION_POLICY, DeidentificationPolicySchema } from '#shared/schemas/api/hospital-admin.ts';
import { CreateDatasetRequestSchema } from '#shared/schemas/api/datasets.ts';
import { caller, NEW_DATASET, ports } from '#tests/unit/domain/fakes.ts';

const admin = caller('HOSPITAL_ADMIN');
const member = caller('TEAM_MEMBER');
const { anonymization: _options, ...CONTEXT } = NEW_DATASET;
const request = (anonymization?: Record<string, boolean>) =>
  CreateDatasetRequestSchema.parse({ ...CONTEXT, ...(anonymization ? { anonymization } : {}) });

describe('de-identification policy of a hospital', () => {
  it('defaults to the Basic Profile with Retain Safe Private, physician and institution removed, nothing open to uploaders', async () => {
    const p = ports();
    expect(await getDeidentificationPolicy(admin, p)).toEqual({
      defaults: {
        retainPhysicianIdentity: false,
        retainInstitutionIdentity: false,
        retainUids: false,
        retainLongitudinalDates: false,
        retainPatientCharacteristics: false,
        keepPrivate: false,
      },
      uploaderMayChange: [],
      updatedAt: null,
      updatedByUserId: null,
    });
  });

  it('refuses an uploader who keeps identities, dates, UIDs or private tags the policy does not leave open', async () => {
    const p = ports();
    for (const option of [
      'retainPhysicianIdentity',
      'retainInstitutionIdentity',
      'retainUids',
      'retainLongitudinalDates',
      'retainPatientCharacteristics',
      'keepPrivate',
    ]) {
      const refused = await createDataset(request({ [option]: true }), member, p).catch((e: unknown) => e);
      expect(refused, option).toBeInstanceOf(ValidationError);
      expect((refused as ValidationError).details).toEqual([
        { path: `anonymization.${option}`, message: "Set by your hospital's de-identification policy" },
      ]);
    }
    expect(p.datasets.rows.size).toBe(0);
    const plain = await createDataset(request(), member, p);
    expect(plain.anonymization).toEqual(DEFAULT_DEIDENTIFICATION_POLICY.defaults);
  });

  it("applies the admin's defaults and lets uploaders change only the options it leaves open", async () => {
    const p = ports();
    await setDeidentificationPolicy(
      {
        defaults: { ...DEFAULT_DEIDENTIFICATION_POLICY.defaults, retainLongitudinalDates: true },
        uploaderMayChange: ['retainUids'],
      },
      admin,
      p,
    );
    const d = await createDataset(request({ retainUids: true }), member, p);
    expect(d.anonymization).toMatchObject({ retainUids: true, retainLongitudinalDates: true });
    await expect(createDataset(request({ retainLongitudinalDates: false }), member, p)).rejects.toBeInstanceOf(
      ValidationError,
    );
    // An edit is checked the same way: open options change, locked ones do not.
    expect(
      (await updateDataset(d.id, { anonymization: { retainUids: false } }, member, p)).anonymization,
    ).toMatchObject({ retainUids: false, retainLongitudinalDates: true });
    await expect(
      updateDataset(d.id, { anonymization: { retainPhysicianIdentity: true } }, member, p),
    ).rejects.toBeInstanceOf(ValidationError);
  });

  it('is set by hospital admins only, per hospital, and audited with before and after', async () => {
    const p = ports();
    const policy = { defaults: DEFAULT_DEIDENTIFICATION_POLICY.defaults, uploaderMayChange: ['keepPrivate' as const] };
    await expect(setDeidentificationPolicy(policy, caller('TEAM_LEAD'), p)).rejects.toMatchObject({
      code: 'ACCESS_DENIED',
    });
    await expect(getDeidentificationPolicy(member, p)).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    const saved = await setDeidentificationPolicy(policy, admin, p);
    expect(saved).toMatchObject({ uploaderMayChange: ['keepPrivate'], updatedByUserId: admin.userId });
    expect(await getDeidentificationPolicy(admin, p)).toEqual(saved);
    expect(
      (await getDeidentificationPolicy(caller('HOSPITAL_ADMIN', { hospitalId: 'h2' }), p)).uploaderMayChange,
    ).toEqual([]);
    const event = p.audit.events.find((e) => e.action === 'DEIDENTIFICATION_POLICY_CHANGED');
    expect(event).toMatchObject({
      hospitalId: 'h1',
      actorUserId: admin.userId,
      details: { before: DEFAULT_DEIDENTIFICATION_POLICY, after: policy },
    });
  });

  it('accepts a policy naming each option at most once, and only known options', () => {
    const ok = { defaults: DEFAULT_DEIDENTIFICATION_POLICY.defaults, uploaderMayChange: ['retainUids'] };
    expect(DeidentificationPolicySchema.safeParse(ok).success).toBe(true);
    expect(
      DeidentificationPolicySchema.safeParse({ ...ok, uploaderMayChange: ['retainUids', 'retainUids'] }).success,
    ).toBe(false);
    expect(DeidentificationPolicySchema.safeParse({ ...ok, uploaderMayChange: ['patientName'] }).success).toBe(false);
  });
});
