import { type AnonymizationRequest } from '#shared/schemas/api/datasets.ts';
import {
  ANONYMIZATION_OPTIONS,
  type AnonymizationOptions,
  type HipaaToggle,
  type PolicyHipaaToggle,
} from '#shared/vocabulary/deidentification.ts';
import {
  DEFAULT_DEIDENTIFICATION_POLICY,
  type DeidentificationPolicy,
  type DeidentificationPolicyResponse,
} from '#shared/schemas/api/hospital-admin.ts';
import type { Caller } from '#shared/domain/auth/caller.ts';
import type { AuditLog, Clock } from '#shared/domain/ports.ts';
import { AccessDeniedError, ValidationError } from '#shared/domain/errors.ts';
import type { DeidentificationPolicies } from './ports.ts';

/** The policy in force for a hospital: its admin's, or the defaults. */
export async function policyInForce(
  hospitalId: string,
  deps: { policies: DeidentificationPolicies },
): Promise<DeidentificationPolicy> {
  const stored = await deps.policies.get(hospitalId);
  return stored
    ? { defaults: stored.defaults, uploaderMayChange: stored.uploaderMayChange }
    : DEFAULT_DEIDENTIFICATION_POLICY;
}

/**
 * The HIPAA switches of the compliance tab read from the policy (docs/domain.md#hipaa-switches): the policy is their
 * one source. Anonymize by default and hash IDs are always on (every upload is de-identified with the defaults; the
 * patient's ids always become a keyed hash).
 */
export function hipaaTogglesOf(policy: Pick<DeidentificationPolicy, 'defaults'>): Record<HipaaToggle, boolean> {
  return {
    anonymizeByDefault: true,
    hashIds: true,
    regenerateUIDs: !policy.defaults.retainUids,
    removePrivateTags: policy.defaults.removeAllPrivate === true,
  };
}

/**
 * The policy with one HIPAA switch turned: regenerate UIDs is the defaults' `retainUids` off; remove private tags is
 * their `removeAllPrivate` (the Basic Profile alone), which leaves no private attribute kept, so on it also turns
 * `keepPrivate` and `keepAllPrivate` off. Off, the safe private list is kept again (the profile's default).
 */
export function withHipaaToggle(
  policy: DeidentificationPolicy,
  toggle: PolicyHipaaToggle,
  on: boolean,
): DeidentificationPolicy {
  const defaults =
    toggle === 'regenerateUIDs'
      ? { ...policy.defaults, retainUids: !on }
      : on
        ? { ...policy.defaults, removeAllPrivate: true, keepPrivate: false, keepAllPrivate: false }
        : { ...policy.defaults, removeAllPrivate: false };
  return { ...policy, defaults };
}

/**
 * The options a dataset gets: what the uploader asked for over `base` (the policy's defaults for a new dataset, the
 * dataset's own options for an edit). A value that differs from the policy's default on an option uploaders may not
 * change is refused, naming the option, rather than silently replaced.
 */
export function applyPolicy(
  requested: AnonymizationRequest | undefined,
  policy: DeidentificationPolicy,
  base: AnonymizationOptions = policy.defaults,
): AnonymizationOptions {
  const options = { ...base, ...requested };
  const locked = ANONYMIZATION_OPTIONS.filter(
    (option) => options[option] !== policy.defaults[option] && !policy.uploaderMayChange.includes(option),
  );
  if (locked.length > 0)
    throw new ValidationError(
      'VALIDATION_FAILED',
      {},
      locked.map((option) => ({
        path: `anonymization.${option}`,
        message: "Set by your hospital's de-identification policy",
      })),
    );
  return options;
}

function assertHospitalAdmin(caller: Caller): void {
  if (caller.role !== 'HOSPITAL_ADMIN') throw new AccessDeniedError();
}

export async function getDeidentificationPolicy(
  caller: Caller,
  deps: { policies: DeidentificationPolicies },
): Promise<DeidentificationPolicyResponse> {
  assertHospitalAdmin(caller);
  const stored = await deps.policies.get(caller.hospitalId);
  return stored ?? { ...DEFAULT_DEIDENTIFICATION_POLICY, updatedAt: null, updatedByUserId: null };
}

/** A hospital admin sets the policy; the audit log keeps it before and after. */
export async function setDeidentificationPolicy(
  policy: DeidentificationPolicy,
  caller: Caller,
  deps: { policies: DeidentificationPolicies; audit: AuditLog; clock: Clock },
): Promise<DeidentificationPolicyResponse> {
  assertHospitalAdmin(caller);
  const before = await policyInForce(caller.hospitalId, deps);
  const after = {
    defaults: policy.defaults,
    uploaderMayChange: [...policy.uploaderMayChange].sort(),
    updatedAt: deps.clock.now(),
    updatedByUserId: caller.userId,
  };
  await deps.policies.put(caller.hospitalId, after);
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    action: 'DEIDENTIFICATION_POLICY_CHANGED',
    actorUserId: caller.userId,
    actorName: `${caller.firstName} ${caller.lastName}`,
    details: { before, after: { defaults: after.defaults, uploaderMayChange: after.uploaderMayChange } },
  });
  return after;
}
