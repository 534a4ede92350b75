import type { Caller } from '#shared/domain/auth/caller.ts';
import type { Directory } from '#shared/domain/auth/ports.ts';
import { USER_STATUSES } from '#shared/vocabulary/users.ts';
import type { DatasetRecord, DatasetRepository } from '#shared/domain/datasets/ports.ts';
import type { AuditChainVerification, AuditLog, Clock } from '#shared/domain/ports.ts';
import { eachLimited, walkDatasets } from '#shared/domain/datasets/walk-datasets.ts';
import { DEFAULT_DEIDENTIFICATION_POLICY } from '#shared/schemas/api/hospital-admin.ts';
import type { DeidentificationPolicies } from '#shared/domain/settings/ports.ts';
import { isHeldForBurnedInText } from '#shared/schemas/api/datasets.ts';
import { ANONYMIZATION_OPTIONS } from '#shared/vocabulary/deidentification.ts';
import type { Compliance } from '#shared/schemas/api/oversight.ts';
import type { ShareStore } from '#shared/domain/shares/ports.ts';
import { effectiveStatus } from '#shared/domain/shares/patient-shares.ts';
import { policyFor, type PolicyDeps } from '#shared/domain/settings/policies.ts';
import { hipaaTogglesOf } from '#shared/domain/settings/deidentification-policy.ts';
import { PATIENT_SHARE_STATUSES } from '#shared/schemas/api/shares.ts';
import type { OrganisationStore } from '#shared/domain/organisation/ports.ts';
import { auditHospital } from './audit-trail.ts';
import { signInFigures, signInWindowStart } from './sign-ins.ts';

/** Series lists read at once while counting held series. */
const SERIES_READS_AT_ONCE = 8;

/**
 * The compliance center's figures (docs/screens.md#compliance-center), computed from the hospital's data when asked:
 * de-identification of its datasets and the options each kept, series held for burned-in text, users by status, and
 * patient shares by status, sign-ins and failed sign-ins over the last 30 days, the HIPAA toggles in force, and the
 * audit chain's length and latest verification.
 */
export async function getCompliance(
  input: { hospitalId?: string },
  caller: Caller,
  deps: {
    datasets: DatasetRepository;
    directory: Directory;
    policies: DeidentificationPolicies;
    audit: AuditLog;
    clock: Clock;
    shares: Pick<ShareStore, 'listPatientShares'>;
    organisation: Pick<OrganisationStore, 'listUsage'>;
  } & PolicyDeps,
): Promise<Compliance> {
  const hospitalId = await auditHospital(caller, input.hospitalId, deps.directory);
  const all: DatasetRecord[] = [];
  await walkDatasets(deps.datasets, hospitalId, (d) => void all.push(d));
  const deidentified = all.filter((d) => d.deidentifiedAt !== undefined);
  const optionsRetained = Object.fromEntries(
    ANONYMIZATION_OPTIONS.map((option) => [
      option,
      deidentified.filter((d) => d.anonymization[option] === true).length,
    ]),
  ) as Compliance['deidentification']['optionsRetained'];

  let seriesHeld = 0;
  let seriesReleased = 0;
  let datasetsWithHeldSeries = 0;
  await eachLimited(deidentified, SERIES_READS_AT_ONCE, async (d) => {
    const series = await deps.datasets.listSeries(hospitalId, d.id);
    const held = series.filter(isHeldForBurnedInText).length;
    seriesHeld += held;
    seriesReleased += series.filter((s) => s.burnedInText?.releasedAt !== undefined).length;
    if (held > 0) datasetsWithHeldSeries++;
  });

  const patientShares = Object.fromEntries(PATIENT_SHARE_STATUSES.map((s) => [s, 0])) as Compliance['patientShares'];
  const now = deps.clock.now();
  await eachLimited(all, SERIES_READS_AT_ONCE, async (d) => {
    for (const share of await deps.shares.listPatientShares(hospitalId, d.id))
      patientShares[effectiveStatus(share, now)]++;
  });

  const users = await deps.directory.listAllUsers(hospitalId);
  const byStatus = Object.fromEntries(
    USER_STATUSES.map((status) => [status, users.filter((u) => u.status === status).length]),
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
      datasets: all.length,
      deidentified: deidentified.length,
      notDeidentified: all.length - deidentified.length,
      optionsRetained,
      basicProfileOnly: deidentified.filter((d) => ANONYMIZATION_OPTIONS.every((o) => d.anonymization[o] !== true))
        .length,
      policy,
    },
    burnedInText: { seriesHeld, seriesReleased, datasetsWithHeldSeries },
    users: {
      total: users.length,
      byStatus,
      twoFactor: users.filter((u) => u.status === 'ACTIVE' && u.twoFactorSince !== undefined).length,
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
