import { describe, expect, it } from 'vitest';
import { createDataset } from '#shared/domain/datasets/create-dataset.ts';
import { updateDataset } from '#shared/domain/datasets/update-dataset.ts';
import { ValidationError } from '#shared/domain/errors.ts';
import {
  getDeidentificationPolicy,
  hipaaTogglesOf,
  setDeidentificationPolicy,
  withHipaaToggle,
} from '#shared/domain/settings/deidentification-policy.ts';
import { hospitalPolicy } from '#shared/domain/settings/policies.ts';
import { privateAttributesOf } from '#shared/dicom/deidentify/profile.ts';
import { DEFAULT_HOSPITAL_POLICY } from '#shared/schemas/api/policies.ts';
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

/** The compliance tab's HIPAA switches are the policy seen another way (docs/domain.md#hipaa-switches). */
describe('HIPAA switches', () => {
  /** What the compliance tab does: read the policy, turn one switch, save the policy. */
  async function turn(toggle: 'regenerateUIDs' | 'removePrivateTags', on: boolean, p: ReturnType<typeof ports>) {
    const { defaults, uploaderMayChange } = await getDeidentificationPolicy(admin, p);
    await setDeidentificationPolicy(withHipaaToggle({ defaults, uploaderMayChange }, toggle, on), admin, p);
  }

  it('read the defaults as: anonymize and hash always on, UIDs regenerated, the safe private list kept', async () => {
    expect(hipaaTogglesOf(await getDeidentificationPolicy(admin, ports()))).toEqual({
      anonymizeByDefault: true,
      hashIds: true,
      regenerateUIDs: true,
      removePrivateTags: false,
    });
  });

  it('"Remove private tags" on changes what the next upload gets: no private attribute kept', async () => {
    const p = ports();
    const before = await createDataset(request(), member, p);
    expect(privateAttributesOf(before.anonymization)).toBe('safe');

    await turn('removePrivateTags', true, p);
    const after = await createDataset(request(), member, p);
    expect(after.anonymization).toMatchObject({ removeAllPrivate: true, keepPrivate: false, keepAllPrivate: false });
    expect(privateAttributesOf(after.anonymization)).toBe('none');
    // Read back, the tab shows it on: the policy is the one source.
    expect(hipaaTogglesOf(await getDeidentificationPolicy(admin, p)).removePrivateTags).toBe(true);

    await turn('removePrivateTags', false, p);
    expect(privateAttributesOf((await createDataset(request(), member, p)).anonymization)).toBe('safe');
  });

  it('"Regenerate UIDs" off keeps the original UIDs of the next upload', async () => {
    const p = ports();
    await turn('regenerateUIDs', false, p);
    expect((await createDataset(request(), member, p)).anonymization.retainUids).toBe(true);
    expect(hipaaTogglesOf(await getDeidentificationPolicy(admin, p)).regenerateUIDs).toBe(false);
  });

  it('drops the separate flags a hospital policy stored before, without carrying them into uploads', async () => {
    const p = ports();
    const stored = {
      ...DEFAULT_HOSPITAL_POLICY,
      compliance: {
        ...DEFAULT_HOSPITAL_POLICY.compliance,
        hipaaToggles: { anonymizeByDefault: true, hashIds: true, regenerateUIDs: true, removePrivateTags: true },
      },
    };
    await p.settings.putHospitalPolicy(admin.hospitalId, { value: stored, updatedAt: 'then', updatedByUserId: 'u' });
    expect((await hospitalPolicy(admin.hospitalId, p)).compliance).toEqual({ dlpRules: { blockPHIInMessages: true } });
    expect(privateAttributesOf((await createDataset(request(), member, p)).anonymization)).toBe('safe');
  });
});
