import type { Caller } from '#shared/domain/auth/caller.ts';
import {
  AccessDeniedError,
  ConflictError,
  NotFoundError,
  ShareAccessError,
  SharePolicyError,
} from '#shared/domain/errors.ts';
import type { AuditLog, Clock, IdGenerator } from '#shared/domain/ports.ts';
import {
  activeHospitalAdmins,
  notifyWhoWants,
  type PreferredNotificationDeps,
} from '#shared/domain/notifications/preferences.ts';
import type { ShareApproval, ShareDecision } from '#shared/schemas/api/shares.ts';
import type { ShareApprovalRecord, ShareStore } from './ports.ts';
import type { OrganisationCounters } from '#shared/domain/organisation/ports.ts';
import { movePatientShareCounters } from '#shared/domain/dashboards/counters.ts';
import { canDecide, inQueueOf, type SharePolicy } from './share-policy.ts';

/**
 * The approval queue (docs/domain.md#share-policy): a share the policy holds back waits here until the lead of the
 * dataset's team or a hospital admin approves it (the team share's grant is written, the patient link opens) or
 * refuses it (the team share is dropped, the patient share is REFUSED). Every request and decision is audited.
 */
export type ApprovalDeps = {
  shares: ShareStore;
  /** A decided patient share moves the hospital's shares by status (docs/domain.md#counters). */
  organisation: Pick<OrganisationCounters, 'add'>;
  audit: AuditLog;
  clock: Clock;
  ids: IdGenerator;
} & Omit<PreferredNotificationDeps, 'clock' | 'ids'>;

/** The site's page of the queue, where the bell's notification leads. */
export const APPROVALS_PAGE = '/shares/approvals';

const fullName = (u: { firstName: string; lastName: string }) => `${u.firstName} ${u.lastName}`.trim();

export function toShareApproval(record: ShareApprovalRecord): ShareApproval {
  const { hospitalId: _h, teamShare: _t, ...approval } = record;
  return approval;
}

/** Stores the waiting share, audits the request and tells the approvers (the team's lead, the hospital's admins). */
export async function requestApproval(
  record: ShareApprovalRecord,
  caller: Caller,
  rules: Pick<SharePolicy, 'leadUserId'>,
  deps: ApprovalDeps,
): Promise<void> {
  await deps.shares.putApproval(record);
  await deps.audit.record({
    hospitalId: record.hospitalId,
    datasetId: record.datasetId,
    action: 'SHARE_APPROVAL_REQUESTED',
    outcome: 'SUCCESS',
    actorUserId: caller.userId,
    actorName: fullName(caller),
    details: { shareId: record.id, kind: record.kind },
  });
  const approvers = [
    ...(rules.leadUserId && rules.leadUserId !== caller.userId ? [rules.leadUserId] : []),
    ...(await activeHospitalAdmins(record.hospitalId, deps, caller.userId)),
  ];
  await notifyWhoWants(
    record.hospitalId,
    approvers,
    'complianceAlerts',
    {
      type: 'SHARE_APPROVAL_REQUESTED',
      title: 'Share waiting for approval',
      description: `${fullName(caller)} asked to share a dataset ${record.kind === 'PATIENT' ? 'with a patient' : 'with colleagues'}.`,
      href: APPROVALS_PAGE,
    },
    { ...deps, ids: deps.ids },
  );
}

export async function listShareApprovals(
  caller: Caller,
  deps: Pick<ApprovalDeps, 'shares'>,
): Promise<{ items: ShareApproval[] }> {
  const items = await deps.shares.listApprovals(caller.hospitalId);
  return {
    items: items
      .filter((a) => inQueueOf(caller, a))
      .sort((a, b) => a.requestedAt.localeCompare(b.requestedAt))
      .map(toShareApproval),
  };
}

/** Approves or refuses one waiting share: the first decision wins, a second answers SHARE_NOT_PENDING. */
export async function decideShare(
  shareId: string,
  decision: ShareDecision['decision'],
  caller: Caller,
  deps: ApprovalDeps,
): Promise<ShareDecision> {
  const approval = await deps.shares.getApproval(caller.hospitalId, shareId);
  // Another team's queue answers as an unknown share; one's own request may not be decided by oneself.
  if (!approval || !inQueueOf(caller, approval)) throw new NotFoundError('SHARE_NOT_FOUND');
  if (!canDecide(caller, approval)) throw new AccessDeniedError();
  try {
    await deps.shares.takeApproval(approval);
  } catch (error) {
    if (error instanceof ConflictError) throw new SharePolicyError('SHARE_NOT_PENDING');
    throw error;
  }
  const now = deps.clock.now();
  if (approval.kind === 'TEAM' && approval.teamShare) {
    if (decision === 'APPROVED') {
      try {
        await deps.shares.putTeamShare({ ...approval.teamShare, status: 'ACTIVE' });
      } catch (error) {
        // The recipient was given the dataset another way meanwhile.
        if (error instanceof ConflictError)
          throw new ShareAccessError('SHARE_EXISTS', { name: approval.teamShare.recipientName });
        throw error;
      }
    }
  } else if (approval.kind === 'PATIENT') {
    const share = await deps.shares.getPatientShare(caller.hospitalId, approval.datasetId, shareId);
    if (!share || share.status !== 'PENDING_APPROVAL') throw new SharePolicyError('SHARE_NOT_PENDING');
    // The link's lifetime starts when it may first open.
    const lifetime = Date.parse(share.expiresAt) - Date.parse(share.createdAt);
    const decided = await deps.shares.updatePatientShare(
      share,
      decision === 'APPROVED'
        ? { status: 'ACTIVE', expiresAt: new Date(Date.parse(now) + lifetime).toISOString() }
        : { status: 'REFUSED' },
      share.version,
    );
    await movePatientShareCounters(deps.organisation, caller.hospitalId, share.status, decided.status);
  }
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    datasetId: approval.datasetId,
    action: decision === 'APPROVED' ? 'SHARE_APPROVED' : 'SHARE_REFUSED',
    outcome: 'SUCCESS',
    actorUserId: caller.userId,
    actorName: fullName(caller),
    details: { shareId, kind: approval.kind, requestedByUserId: approval.requestedByUserId },
  });
  await notifyWhoWants(
    caller.hospitalId,
    [approval.requestedByUserId],
    'complianceAlerts',
    {
      type: 'SHARE_APPROVAL_DECIDED',
      title: decision === 'APPROVED' ? 'Share approved' : 'Share refused',
      description: `${fullName(caller)} ${decision === 'APPROVED' ? 'approved' : 'refused'} your share of a dataset.`,
      href: `/datasets/${encodeURIComponent(approval.datasetId)}`,
    },
    deps,
  );
  return { approval: toShareApproval(approval), decision };
}
