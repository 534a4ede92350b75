import {
  canManageDataset,
  canSeeDataset,
  isGuestKeptOut,
  isHospitalWide,
  isLeadOrAdmin,
  requirePermission,
  type Caller,
} from '#shared/domain/auth/caller.ts';
import type { Directory } from '#shared/domain/auth/ports.ts';
import type { OrganisationStore } from '#shared/domain/organisation/ports.ts';
import type { DatasetRepository } from '#shared/domain/datasets/ports.ts';
import type { AuditLog, Clock, IdGenerator } from '#shared/domain/ports.ts';
import { loadVisibleDataset } from '#shared/domain/datasets/load-dataset.ts';
import { toDataset } from '#shared/domain/datasets/view.ts';
import { AccessDeniedError, NotFoundError, ShareAccessError, ValidationError } from '#shared/domain/errors.ts';
import type { Dataset } from '#shared/schemas/api/datasets.ts';
import type { TeamShare, TeamSharePermission } from '#shared/schemas/api/shares.ts';
import type { ShareStore, TeamShareRecord } from './ports.ts';
import { approvalRequired, sharePolicyFor, type SharePolicyDeps } from './share-policy.ts';
import { requestApproval, type ApprovalDeps } from './approvals.ts';

export type TeamShareDeps = {
  datasets: DatasetRepository;
  shares: ShareStore;
  directory: Pick<Directory, 'getUser' | 'getTeam'>;
  audit: AuditLog;
  clock: Clock;
  ids: IdGenerator;
};

/** Creating a team share also reads the sharing policy and may ask for approval (docs/domain.md#share-policy). */
export type CreateTeamShareDeps = TeamShareDeps & SharePolicyDeps & ApprovalDeps;

const fullName = (u: { firstName: string; lastName: string }) => `${u.firstName} ${u.lastName}`.trim();

export function toTeamShare(record: TeamShareRecord): TeamShare {
  const { hospitalId: _h, ...share } = record;
  return { ...share, status: share.status ?? 'ACTIVE' };
}

/**
 * Who may share a dataset (docs/domain.md#shares): its owner, their team's lead or a hospital admin, each
 * holding SHARE_DATA (docs/roles-and-permissions.md#permission-checks). The dataset must be theirs by hospital or team, never one shared with them.
 */
async function loadShareable(caller: Caller, datasetId: string, deps: Pick<TeamShareDeps, 'datasets'>) {
  const dataset = await loadVisibleDataset(caller, datasetId, deps);
  requirePermission(caller, 'SHARE_DATA');
  if (!canManageDataset(caller, dataset)) throw new AccessDeniedError();
  return dataset;
}

export async function createTeamShares(
  datasetId: string,
  input: { memberIds?: string[]; teamId?: string; permissions: TeamSharePermission[] },
  caller: Caller,
  deps: CreateTeamShareDeps,
): Promise<{ items: TeamShare[] }> {
  const dataset = await loadShareable(caller, datasetId, deps);
  // Colleagues of the hospital are never external; approval is the switch that acts here (docs/domain.md#share-policy).
  const rules = await sharePolicyFor(caller.hospitalId, dataset.teamId, deps);
  const pending = approvalRequired(caller, rules);
  const permissions = [...new Set(input.permissions)];
  const recipients: { type: 'USER' | 'TEAM'; id: string; name: string }[] = [];
  for (const memberId of new Set(input.memberIds ?? [])) {
    const user = await deps.directory.getUser(caller.hospitalId, memberId);
    // Chosen members of the dataset's own team; anyone else answers as unknown.
    if (!user || user.hospitalId !== caller.hospitalId || user.teamId !== dataset.teamId || user.status !== 'ACTIVE')
      throw new NotFoundError('USER_NOT_FOUND');
    if (user.id === dataset.ownerUserId)
      throw new ValidationError('VALIDATION_FAILED', {}, [
        { path: 'memberIds', message: 'The owner already sees this dataset' },
      ]);
    recipients.push({ type: 'USER', id: user.id, name: fullName(user) });
  }
  if (input.teamId) {
    const team = await deps.directory.getTeam(caller.hospitalId, input.teamId);
    if (!team || team.hospitalId !== caller.hospitalId || team.isActive === false)
      throw new NotFoundError('TEAM_NOT_FOUND');
    if (team.id === dataset.teamId)
      throw new ValidationError('VALIDATION_FAILED', {}, [
        { path: 'teamId', message: 'The team already sees this dataset' },
      ]);
    recipients.push({ type: 'TEAM', id: team.id, name: team.name });
  }
  const waiting = pending ? await deps.shares.listApprovals(caller.hospitalId) : [];
  for (const r of recipients)
    if (
      (await deps.shares.findGrant(caller.hospitalId, r, datasetId)) ||
      waiting.some(
        (a) =>
          a.teamShare?.datasetId === datasetId &&
          a.teamShare.recipientType === r.type &&
          a.teamShare.recipientId === r.id,
      )
    )
      throw new ShareAccessError('SHARE_EXISTS', { name: r.name });
  const createdAt = deps.clock.now();
  const created: TeamShareRecord[] = [];
  for (const r of recipients) {
    const share: TeamShareRecord = {
      id: deps.ids.newId(),
      hospitalId: caller.hospitalId,
      datasetId,
      sourceTeamId: dataset.teamId,
      recipientType: r.type,
      recipientId: r.id,
      recipientName: r.name,
      permissions,
      createdByUserId: caller.userId,
      createdByName: fullName(caller),
      createdAt,
      status: pending ? 'PENDING_APPROVAL' : 'ACTIVE',
    };
    // A waiting share writes no grant: the recipient sees nothing until it is approved.
    if (!pending) await deps.shares.putTeamShare(share);
    await deps.audit.record({
      hospitalId: caller.hospitalId,
      datasetId,
      ...(r.type === 'USER' ? { targetUserId: r.id } : {}),
      action: 'TEAM_SHARE_CREATED',
      outcome: 'SUCCESS',
      actorUserId: caller.userId,
      actorName: fullName(caller),
      details: { shareId: share.id, recipientType: r.type, recipientId: r.id, permissions, status: share.status! },
    });
    if (pending)
      await requestApproval(
        {
          id: share.id,
          hospitalId: caller.hospitalId,
          kind: 'TEAM',
          datasetId,
          teamId: dataset.teamId,
          recipient: r.name,
          permissions,
          requestedByUserId: caller.userId,
          requestedByName: fullName(caller),
          requestedAt: createdAt,
          teamShare: share,
        },
        caller,
        rules,
        deps,
      );
    created.push(share);
  }
  return { items: created.map(toTeamShare) };
}

/**
 * The dataset's team shares, and the other active teams of the hospital it may be shared with (names only: a lead or
 * member does not otherwise list the hospital's teams).
 */
export async function listDatasetTeamShares(
  datasetId: string,
  caller: Caller,
  deps: Pick<TeamShareDeps, 'datasets' | 'shares'> & { organisation?: Pick<OrganisationStore, 'listTeams'> },
): Promise<{ items: TeamShare[]; teams: { id: string; name: string }[] }> {
  const dataset = await loadShareable(caller, datasetId, deps);
  const waiting = (await deps.shares.listApprovals(caller.hospitalId))
    .map((a) => a.teamShare)
    .filter((s): s is TeamShareRecord => s !== undefined && s.datasetId === datasetId);
  const items = [...(await deps.shares.listTeamSharesOfDataset(caller.hospitalId, datasetId)), ...waiting];
  const teams = deps.organisation
    ? (await deps.organisation.listTeams({ hospitalId: caller.hospitalId, includeArchived: false, limit: 100 })).items
    : [];
  return {
    items: items.sort((a, b) => b.createdAt.localeCompare(a.createdAt)).map(toTeamShare),
    teams: teams
      .filter((t) => t.id !== dataset.teamId && t.isActive !== false)
      .map((t) => ({ id: t.id, name: t.name }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

/** Revoking deletes the lookup item with the share: the next read by the recipient answers 404. */
export async function revokeTeamShare(
  datasetId: string,
  shareId: string,
  caller: Caller,
  deps: TeamShareDeps,
): Promise<{ revoked: true }> {
  await loadShareable(caller, datasetId, deps);
  const share = await deps.shares.getTeamShare(caller.hospitalId, datasetId, shareId);
  if (!share) {
    // A share still waiting for approval is withdrawn from the queue: it never had a grant.
    const waiting = await deps.shares.getApproval(caller.hospitalId, shareId);
    if (!waiting || waiting.datasetId !== datasetId) throw new NotFoundError('SHARE_NOT_FOUND');
    await deps.shares.takeApproval(waiting).catch(() => undefined);
    await deps.audit.record({
      hospitalId: caller.hospitalId,
      datasetId,
      action: 'TEAM_SHARE_REVOKED',
      outcome: 'SUCCESS',
      actorUserId: caller.userId,
      actorName: fullName(caller),
      details: { shareId, status: 'PENDING_APPROVAL' },
    });
    return { revoked: true };
  }
  await deps.shares.deleteTeamShare(share);
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    datasetId,
    ...(share.recipientType === 'USER' ? { targetUserId: share.recipientId } : {}),
    action: 'TEAM_SHARE_REVOKED',
    outcome: 'SUCCESS',
    actorUserId: caller.userId,
    actorName: fullName(caller),
    details: { shareId, recipientType: share.recipientType, recipientId: share.recipientId },
  });
  return { revoked: true };
}

/** The team page's DICOM shares tab: shares of the team's datasets; its lead, members and hospital admins see it. */
export async function listTeamDicomShares(
  teamId: string,
  caller: Caller,
  deps: Pick<TeamShareDeps, 'shares' | 'directory'>,
): Promise<{ items: TeamShare[] }> {
  const team = await deps.directory.getTeam(caller.hospitalId, teamId);
  if (!team || (!isHospitalWide(caller) && caller.teamId !== teamId)) throw new NotFoundError('TEAM_NOT_FOUND');
  if (!isLeadOrAdmin(caller)) requirePermission(caller, 'SHARE_DATA');
  const items = await deps.shares.listTeamSharesFromTeam(caller.hospitalId, teamId);
  return { items: items.map(toTeamShare) };
}

/**
 * Datasets shared with the caller or their team (the Datasets page's "shared with you" items): the recipient's lookup
 * partitions, then one read per dataset; a dataset deleted since is skipped.
 */
export async function listSharedWithMe(
  caller: Caller,
  deps: Pick<TeamShareDeps, 'shares' | 'datasets'>,
): Promise<{ items: Dataset[] }> {
  requirePermission(caller, 'VIEW_DATASETS');
  // A guest of a team that keeps guests out is shown nothing (docs/domain.md#share-policy).
  if (isGuestKeptOut(caller)) return { items: [] };
  const grants = [
    ...(await deps.shares.listReceived(caller.hospitalId, { type: 'USER', id: caller.userId })),
    ...(caller.teamId ? await deps.shares.listReceived(caller.hospitalId, { type: 'TEAM', id: caller.teamId }) : []),
  ];
  const byDataset = new Map<string, Set<TeamSharePermission>>();
  for (const g of grants) {
    const set = byDataset.get(g.datasetId) ?? new Set<TeamSharePermission>();
    g.permissions.forEach((p) => set.add(p));
    byDataset.set(g.datasetId, set);
  }
  const items: Dataset[] = [];
  for (const [datasetId, permissions] of byDataset) {
    const dataset = await deps.datasets.get(caller.hospitalId, datasetId);
    if (!dataset) continue;
    // A dataset the caller sees by hospital or team is listed on the page already; under an individual data policy a
    // teammate's dataset is not, so a member share shows it (docs/domain.md#teams).
    if (canSeeDataset(caller, dataset)) continue;
    items.push({ ...toDataset(dataset), sharedWithYou: [...permissions] });
  }
  return { items: items.sort((a, b) => b.createdAt.localeCompare(a.createdAt)) };
}
