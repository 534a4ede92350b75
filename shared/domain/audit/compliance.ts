import type { Caller } from '#shared/domain/auth/caller.ts';
import type { Directory, HospitalCounters } from '#shared/domain/auth/ports.ts';
import { USER_STATUSES } from '#shared/vocabulary/users.ts';
import type { AuditChainVerification, AuditLog, Clock } from '#shared/domain/ports.ts';
import { DEFAULT_DEIDENTIFICATION_POLICY } from '#shared/schemas/api/hospital-admin.ts';
import type { DeidentificationPolicies } from '#shared/domain/settings/ports.ts';
import { ANONYMIZATION_OPTIONS } from '#shared/vocabulary/deidentification.ts';
import type { Compliance } from '#shared/schemas/api/oversight.ts';
import type { ShareStore } from '#shared/domain/shares/ports.ts';
import { policyFor, type PolicyDeps } from '#shared/domain/settings/policies.ts';
import { hipaaTogglesOf } from '#shared/domain/settings/deidentification-policy.ts';
import { PATIENT_SHARE_STATUSES } from '#shared/schemas/api/shares.ts';
import type { OrganisationStore } from '#shared/domain/organisation/ports.ts';
import { patientShareCounter, retainedOptionCounter, userStatusCounter } from '#shared/domain/dashboards/counters.ts';
import { auditHospital } from './audit-trail.ts';
import { signInFigures, signInWindowStart } from './sign-ins.ts';

/**
 * The compliance center's figures (docs/screens.md#compliance-center): de-identification of the hospital's live
 * datasets and the options each kept, series held for burned-in text, users by status and with two-factor, and
 * patient shares by stored status, from the hospital's counters; the ACTIVE shares past their expiry (EXPIRED now)
 * from one Count query of the by-expiry index; sign-ins and failed sign-ins over the last 30 days, the HIPAA toggles
 * in force, and the audit chain's length and latest verification. No item read grows with the datasets, the users or
 * the shares (docs/domain.md#oversight-figures).
 */
export async function getCompliance(
  input: { hospitalId?: string },
  caller: Caller,
  deps: {
    directory: Directory;
    policies: DeidentificationPolicies;
    audit: AuditLog;
    clock: Clock;
    shares: Pick<ShareStore, 'countActivePastExpiry'>;
    organisation: Pick<OrganisationStore, 'listUsage'>;
  } & PolicyDeps,
): Promise<Compliance> {
  const hospitalId = await auditHospital(caller, input.hospitalId, deps.directory);
  // The dataset figures are the hospital's counters (docs/domain.md#counters): one item, however many datasets.
  const counters: HospitalCounters = (await deps.directory.getHospital(hospitalId)) ?? {};
  const n = (value: number | undefined) => Math.max(0, value ?? 0);
  const datasets = n(counters.datasetCount);
  const deidentified = Math.min(datasets, n(counters.deidentifiedCount));
  const optionsRetained = Object.fromEntries(
    ANONYMIZATION_OPTIONS.map((option) => [option, n(counters[retainedOptionCounter(option)])]),
  ) as Compliance['deidentification']['optionsRetained'];

  // Shares by their status now: the stored statuses are counters; an ACTIVE link past its expiry is EXPIRED, counted
  // by the by-expiry index without reading a share.
  const patientShares = Object.fromEntries(
    PATIENT_SHARE_STATUSES.map((status) => [status, n(counters[patientShareCounter(status)])]),
  ) as Compliance['patientShares'];
  const now = deps.clock.now();
  const pastExpiry = await deps.shares.countActivePastExpiry(hospitalId, now);
  patientShares.ACTIVE = Math.max(0, patientShares.ACTIVE - pastExpiry);
  patientShares.EXPIRED += pastExpiry;

  const byStatus = Object.fromEntries(
    USER_STATUSES.map((status) => [status, n(counters[userStatusCounter(status)])]),
  ) as Compliance['users']['byStatus'];
  const [head, stored, inForce, signInDays] = await Promise.all([
    deps.audit.head(hospitalId),
    deps.policies.get(hospitalId),
    policyFor(hospitalId, null, deps),
    deps.organisation.listUsage(hospitalId, 'hospital', signInWindowStart(now), now.slice(0, 10)),
  ]);
  const policy = stored ?? { ...DEFAULT_DEIDENTIFICATION_POLICY, updatedAt: null, updatedByUserId: null };

  return {
    hospitalId,
    generatedAt: deps.clock.now(),
    deidentification: {
      datasets,
      deidentified,
      notDeidentified: datasets - deidentified,
      optionsRetained,
      basicProfileOnly: n(counters.basicProfileOnlyCount),
      policy,
    },
    burnedInText: {
      seriesHeld: n(counters.seriesHeldCount),
      seriesReleased: n(counters.seriesReleasedCount),
      datasetsWithHeldSeries: n(counters.datasetsWithHeldSeriesCount),
    },
    users: {
      total: Object.values(byStatus).reduce((a, b) => a + b, 0),
      byStatus,
      twoFactor: Math.min(byStatus.ACTIVE, n(counters.twoFactorUserCount)),
    },
    patientShares,
    signIns: signInFigures(signInDays),
    hipaa: {
      toggles: hipaaTogglesOf(policy),
      twoFactorRequired: inForce.security.twoFactorRequired,
    },
    auditChain: { events: head?.seq ?? 0, lastVerification: publicVerification(head?.lastVerification) },
  };
}

/** What the compliance page shows of the last verification: its outcome, not the checkpoint it keeps for the next. */
function publicVerification(last: AuditChainVerification | undefined) {
  if (!last) return null;
  const { at, verified, checkedEvents, brokenAtSeq } = last;
  return { at, verified, checkedEvents, ...(brokenAtSeq !== undefined ? { brokenAtSeq } : {}) };
}
