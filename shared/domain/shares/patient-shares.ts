import { canManageDataset, requirePermission, type Caller } from '#shared/domain/auth/caller.ts';
import type { DatasetRecord, DatasetRepository } from '#shared/domain/datasets/ports.ts';
import type { AuditLog, Clock, IdGenerator } from '#shared/domain/ports.ts';
import type { OrganisationCounters } from '#shared/domain/organisation/ports.ts';
import { movePatientShareCounters } from '#shared/domain/dashboards/counters.ts';
import { loadVisibleDataset } from '#shared/domain/datasets/load-dataset.ts';
import { AccessDeniedError, NotFoundError } from '#shared/domain/errors.ts';
import type { TokenMint } from '#shared/domain/invitations/ports.ts';
import { checkShareAgainstPolicy } from '#shared/domain/settings/enforce.ts';
import { policyFor } from '#shared/domain/settings/policies.ts';
import type {
  CreatePatientShare,
  PatientShare,
  PatientShareStatus,
  ShareAccessEvent,
} from '#shared/schemas/api/shares.ts';
import { UNLIMITED_OPENS, type PatientShareDefaults } from '#shared/schemas/api/policies.ts';
import type { PatientShareRecord, ShareStore } from './ports.ts';
import { approvalRequired, assertRecipientAllowed, sharePolicyFor, type SharePolicyDeps } from './share-policy.ts';
import { requestApproval, type ApprovalDeps } from './approvals.ts';

/** The hospital's patient shares by stored status (docs/domain.md#counters), moved with every status a share stores. */
export type ShareCounterDeps = { organisation: Pick<OrganisationCounters, 'add'> };

export type PatientShareDeps = SharePolicyDeps &
  ApprovalDeps &
  ShareCounterDeps & {
    datasets: DatasetRepository;
    shares: ShareStore;
    audit: AuditLog;
    clock: Clock;
    ids: IdGenerator;
    tokens: TokenMint;
    /** Origin of the site: the link opens its public patient page. */
    siteOrigin: string;
  };

const fullName = (u: { firstName: string; lastName: string }) => `${u.firstName} ${u.lastName}`.trim();

/** The public patient page of a link (docs/screens.md#patient-page). */
export const patientLink = (siteOrigin: string, token: string) =>
  `${siteOrigin.replace(/\/$/, '')}/p/${encodeURIComponent(token)}`;

/** "FOLLOW_UP" → "Follow-up": the study type as the e-mail and the public page name it. */
export function studyTypeLabel(type: string): string {
  const words = type.toLowerCase().split('_');
  return words.map((w, i) => (i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w)).join('-');
}

/**
 * The status the server stores, moved on read (docs/states.md#patient-share): an ACTIVE share past its expiry is
 * EXPIRED, one whose opens reached its max is EXHAUSTED; REVOKED is final.
 */
export function effectiveStatus(share: PatientShareRecord, now: string): PatientShare['status'] {
  if (share.status !== 'ACTIVE') return share.status;
  if (Date.parse(share.expiresAt) <= Date.parse(now)) return 'EXPIRED';
  if (share.maxOpens !== UNLIMITED_OPENS && share.opens >= share.maxOpens) return 'EXHAUSTED';
  return 'ACTIVE';
}

/**
 * Stores a moved status (expiry or the last open noticed) and moves the hospital's share counters with it; a lost race
 * leaves whatever the other writer stored (and counted).
 */
export async function settleStatus(
  share: PatientShareRecord,
  deps: { shares: ShareStore; clock: Clock } & ShareCounterDeps,
): Promise<PatientShareRecord> {
  const status = effectiveStatus(share, deps.clock.now());
  if (status === share.status) return share;
  let settled: PatientShareRecord;
  try {
    settled = await deps.shares.updatePatientShare(share, { status }, share.version);
  } catch {
    return (await deps.shares.getPatientShare(share.hospitalId, share.datasetId, share.id)) ?? share;
  }
  await movePatientShareCounters(deps.organisation, share.hospitalId, share.status, settled.status);
  return settled;
}

export function toPatientShare(record: PatientShareRecord, now: string): PatientShare {
  return {
    id: record.id,
    datasetId: record.datasetId,
    createdByUserId: record.createdByUserId,
    createdByName: record.createdByName,
    patientAlias: record.patientAlias,
    recipientEmail: record.recipientEmail,
    recipientPhone: record.recipientPhone,
    otpRequired: record.otpRequired,
    expiresAt: record.expiresAt,
    maxOpens: record.maxOpens,
    opens: record.opens,
    allowExport: record.allowExport,
    watermark: record.watermark,
    scopes: record.scopes,
    status: effectiveStatus(record, now),
    createdAt: record.createdAt,
    lockedUntil: record.lockedUntil && Date.parse(record.lockedUntil) > Date.parse(now) ? record.lockedUntil : null,
  };
}

/** The dataset's owner, their lead or a hospital admin manage its patient shares, each holding SHARE_DATA. */
async function loadManaged(
  caller: Caller,
  datasetId: string,
  deps: { datasets: DatasetRepository },
): Promise<DatasetRecord> {
  const dataset = await loadVisibleDataset(caller, datasetId, deps);
  requirePermission(caller, 'SHARE_DATA');
  if (!canManageDataset(caller, dataset)) throw new AccessDeniedError();
  return dataset;
}

/**
 * Creates a patient share bounded by the policy in force for the dataset's team (checkShareAgainstPolicy). The link
 * carries a random 32-byte token; only its SHA-256 hash is stored, so the answer is the one place the link appears.
 */
export async function createPatientShare(
  datasetId: string,
  input: CreatePatientShare,
  caller: Caller,
  deps: PatientShareDeps,
): Promise<{ share: PatientShare; link: string }> {
  const dataset = await loadManaged(caller, datasetId, deps);
  // The sharing switches in force for the dataset's team (docs/domain.md#share-policy).
  const rules = await sharePolicyFor(caller.hospitalId, dataset.teamId, deps);
  const { policy } = rules;
  const recipientEmail = input.recipientEmail?.toLowerCase() ?? null;
  const recipientPhone = input.recipientPhone?.replace(/\s+/g, '') ?? null;
  assertRecipientAllowed({ email: recipientEmail, phone: recipientPhone }, rules);
  const pending = approvalRequired(caller, rules);
  const allowDownloads = input.allowDownloads;
  // The downloads scope requires downloads (docs/domain.md#policies-and-inheritance).
  const scopes = [...new Set(input.scopes)].filter((s) => s !== 'downloads' || allowDownloads);
  checkShareAgainstPolicy(
    {
      otpRequired: true,
      expiresInHours: input.expiresInHours,
      maxOpens: input.maxOpens,
      watermark: input.watermark,
      allowDownloads,
      scopes,
    },
    policy,
  );
  const now = deps.clock.now();
  const token = deps.tokens.newToken();
  const record: PatientShareRecord = {
    id: deps.ids.newId(),
    hospitalId: caller.hospitalId,
    datasetId,
    createdByUserId: caller.userId,
    createdByName: fullName(caller),
    patientAlias: dataset.patientAlias,
    recipientEmail,
    recipientPhone,
    // A one-time code is always asked: the link alone never opens a study (docs/domain.md#shares).
    otpRequired: true,
    expiresAt: new Date(Date.parse(now) + input.expiresInHours * 3600_000).toISOString(),
    maxOpens: input.maxOpens,
    opens: 0,
    allowExport: allowDownloads,
    watermark: input.watermark,
    scopes: scopes.length > 0 ? scopes : ['viewer_only'],
    // A share the policy holds back waits; its link does not open until it is approved.
    status: pending ? 'PENDING_APPROVAL' : 'ACTIVE',
    createdAt: now,
    tokenHash: deps.tokens.hash(token),
    failedAttempts: 0,
    studyType: studyTypeLabel(dataset.studyType),
    studyDate: dataset.createdAt.slice(0, 10),
    version: 1,
  };
  await deps.shares.putPatientShare(record);
  await movePatientShareCounters(deps.organisation, record.hospitalId, undefined, record.status);
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    datasetId,
    action: 'PATIENT_SHARE_CREATED',
    outcome: 'SUCCESS',
    actorUserId: caller.userId,
    actorName: fullName(caller),
    details: {
      shareId: record.id,
      expiresInHours: input.expiresInHours,
      maxOpens: record.maxOpens,
      watermark: record.watermark,
      allowDownloads,
      scopes: record.scopes,
      byEmail: record.recipientEmail !== null,
      byPhone: record.recipientPhone !== null,
      status: record.status,
    },
  });
  if (pending)
    await requestApproval(
      {
        id: record.id,
        hospitalId: caller.hospitalId,
        kind: 'PATIENT',
        datasetId,
        teamId: dataset.teamId,
        recipient: record.recipientEmail ?? record.recipientPhone ?? '',
        requestedByUserId: caller.userId,
        requestedByName: fullName(caller),
        requestedAt: now,
      },
      caller,
      rules,
      deps,
    );
  return { share: toPatientShare(record, now), link: patientLink(deps.siteOrigin, token) };
}

export async function listPatientShares(
  datasetId: string,
  caller: Caller,
  deps: Pick<PatientShareDeps, 'datasets' | 'shares' | 'clock' | 'settings' | 'organisation'>,
): Promise<{ items: PatientShare[]; limits: PatientShareDefaults }> {
  const dataset = await loadManaged(caller, datasetId, deps);
  const policy = await policyFor(caller.hospitalId, dataset.teamId, deps);
  const items = await deps.shares.listPatientShares(caller.hospitalId, datasetId);
  const settled = await Promise.all(items.map((s) => settleStatus(s, deps)));
  const now = deps.clock.now();
  return {
    items: settled.sort((a, b) => b.createdAt.localeCompare(a.createdAt)).map((s) => toPatientShare(s, now)),
    limits: policy.patientShare,
  };
}

/** REVOKED at once: the link, its code and every session bound to the share stop working on their next call. */
export async function revokePatientShare(
  datasetId: string,
  shareId: string,
  caller: Caller,
  deps: Pick<PatientShareDeps, 'datasets' | 'shares' | 'clock' | 'audit' | 'organisation'>,
): Promise<{ share: PatientShare }> {
  await loadManaged(caller, datasetId, deps);
  let share = await deps.shares.getPatientShare(caller.hospitalId, datasetId, shareId);
  if (!share) throw new NotFoundError('SHARE_NOT_FOUND');
  if (share.status === 'PENDING_APPROVAL') {
    // Withdrawn before anyone decided: it leaves the approvers' queue.
    const waiting = await deps.shares.getApproval(caller.hospitalId, shareId);
    if (waiting) await deps.shares.takeApproval(waiting).catch(() => undefined);
  }
  // The status this request revoked from (none when another request revoked it first, and counted it).
  let revokedFrom: PatientShareStatus | undefined;
  for (let attempt = 0; share.status !== 'REVOKED'; attempt++) {
    try {
      const from: PatientShareStatus = share.status;
      share = await deps.shares.updatePatientShare(share, { status: 'REVOKED' }, share.version);
      revokedFrom = from;
    } catch (error) {
      if (attempt >= 2) throw error;
      share = (await deps.shares.getPatientShare(caller.hospitalId, datasetId, shareId)) ?? share;
    }
  }
  await movePatientShareCounters(deps.organisation, caller.hospitalId, revokedFrom, revokedFrom && 'REVOKED');
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    datasetId,
    action: 'PATIENT_SHARE_REVOKED',
    outcome: 'SUCCESS',
    actorUserId: caller.userId,
    actorName: fullName(caller),
    details: { shareId },
  });
  return { share: toPatientShare(share, deps.clock.now()) };
}

/** The share's access log (codes sent, wrong codes, locks, opens, downloads), newest first. */
export async function getShareAccessLog(
  datasetId: string,
  shareId: string,
  caller: Caller,
  deps: Pick<PatientShareDeps, 'datasets' | 'shares'>,
): Promise<{ items: ShareAccessEvent[] }> {
  await loadManaged(caller, datasetId, deps);
  const share = await deps.shares.getPatientShare(caller.hospitalId, datasetId, shareId);
  if (!share) throw new NotFoundError('SHARE_NOT_FOUND');
  const events = await deps.shares.listAccessEvents(caller.hospitalId, shareId);
  return {
    items: events.sort((a, b) => b.at.localeCompare(a.at)).map(({ hospitalId: _h, datasetId: _d, ...event }) => event),
  };
}
