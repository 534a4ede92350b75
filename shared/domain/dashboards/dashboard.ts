import { can, type Caller } from '#shared/domain/auth/caller.ts';
import type { Directory, PipelineCounters, UserRecord } from '#shared/domain/auth/ports.ts';
import type { DatasetRecord, DatasetRepository } from '#shared/domain/datasets/ports.ts';
import type { AuditEvent, AuditLog } from '#shared/domain/ports.ts';
import type { OrganisationStore } from '#shared/domain/organisation/ports.ts';
import { BYTES_PER_GB } from '#shared/domain/settings/enforce.ts';
import { policyFor, type PolicyDeps } from '#shared/domain/settings/policies.ts';
import type { Dashboard, DashboardActivity, PipelineFigures } from '#shared/schemas/api/dashboard.ts';
import type { DatasetStatus } from '#shared/vocabulary/datasets.ts';
import { PLAN_PRICE_PER_USER, SUBSCRIPTION_PLANS, type SubscriptionPlan } from '#shared/schemas/api/organisation.ts';

export type DashboardDeps = PolicyDeps & {
  directory: Directory;
  organisation: Pick<OrganisationStore, 'hospitalSummary' | 'listHospitals' | 'listUsers'>;
  audit: Pick<AuditLog, 'search'>;
  datasets: Pick<DatasetRepository, 'list'>;
};

/** Rows of the super admin's hospital performance table (the first page of the hospital list, by name). */
export const DASHBOARD_HOSPITAL_ROWS = 25;
/** Recent Activity shows the first 6 entries, Team Activity up to 4 (docs/screens.md#dashboard). */
export const RECENT_ACTIVITY = 6;
export const TEAM_ACTIVITY = 4;
/** Audit events read to find the team's (events of the hospital, newest first, by the team's members). */
const TEAM_ACTIVITY_WINDOW = 40;
const CURRENT_JOBS = 3;
const ACTIVE_STATUSES: DatasetStatus[] = ['UPLOADING', 'ANONYMIZING', 'CLASSIFYING', 'PROCESSING'];
const MEMBER_LIMIT = 50;

const n = (value: number | undefined) => Math.max(0, Number(value ?? 0));

/** Counters → the pipeline panel; the total is the datasets the item holds (drafts included). */
export function pipelineFigures(item: PipelineCounters & { datasetCount?: number }): PipelineFigures {
  return {
    queued: n(item.queuedCount),
    processing: n(item.processingCount),
    completed: n(item.completedCount),
    failed: n(item.failedCount),
    total: n(item.datasetCount),
  };
}

/** Dollars per month: the plan's price per user times the users (docs/domain.md#plans). */
export function planRevenue(plan: string | undefined, users: number): number {
  const price = plan && plan in PLAN_PRICE_PER_USER ? PLAN_PRICE_PER_USER[plan as SubscriptionPlan] : 0;
  return price * Math.max(0, users);
}

/** Percent of an allocation in use, one decimal; 0 where there is no allocation. */
export function percentOf(usedBytes: number, capGB: number): number {
  const cap = capGB * BYTES_PER_GB;
  return cap > 0 ? Math.round((usedBytes / cap) * 1000) / 10 : 0;
}

const activity = (e: AuditEvent): DashboardActivity => ({
  id: e.id,
  at: e.at,
  user: e.actorName,
  action: e.action,
  ...(e.datasetId ? { datasetId: e.datasetId } : {}),
});

const empty = (role: Dashboard['role']): Dashboard => ({
  role,
  stats: [],
  pipeline: null,
  currentJobs: [],
  moreJobs: 0,
  recentActivity: [],
  teamActivity: [],
  members: [],
  hospitals: [],
});

/**
 * The caller's role dashboard (docs/screens.md#dashboard): figures from the counters on the hospital, team and
 * summary items (docs/domain.md#counters), activity from the audit trail's newest events, and for a team lead up to
 * three datasets in the pipeline. The items read do not grow with the number of datasets.
 */
export async function getDashboard(caller: Caller, deps: DashboardDeps): Promise<Dashboard> {
  const role = caller.role;
  if (role === 'SUPER_ADMIN') return superAdminDashboard(caller, deps);
  const hospital = await deps.directory.getHospital(caller.hospitalId);
  const result = empty(role);
  if (role === 'HOSPITAL_ADMIN') {
    result.stats = [
      { label: 'Hospital Users', value: n(hospital?.userCount), format: 'count' },
      { label: 'Patients Analyzed', value: n(hospital?.patientCount), format: 'count' },
      { label: 'Storage Used', value: n(hospital?.storageUsedBytes), format: 'bytes' },
    ];
    result.pipeline = hospital ? pipelineFigures(hospital) : null;
    result.recentActivity = (
      await deps.audit.search({ hospitalId: caller.hospitalId, limit: RECENT_ACTIVITY })
    ).items.map(activity);
    return result;
  }
  const team = caller.teamId ? await deps.directory.getTeam(caller.hospitalId, caller.teamId) : undefined;
  // A member or guest granted VIEW_ANALYTICS sees the team's figures as its lead does
  // (docs/roles-and-permissions.md#permission-checks); the lead sees them by role.
  const analyst = team !== undefined && role !== 'TEAM_LEAD' && can(caller, 'VIEW_ANALYTICS', { teamId: team.id });
  if (!team || (role === 'GUEST' && !analyst)) {
    result.recentActivity = (
      await deps.audit.search({ hospitalId: caller.hospitalId, actorUserId: caller.userId, limit: RECENT_ACTIVITY })
    ).items.map(activity);
    return result;
  }
  result.pipeline = pipelineFigures(team);
  if (role === 'TEAM_MEMBER' && !analyst) {
    result.stats = [
      { label: 'Patients Analyzed', value: n(team.patientCount), format: 'count' },
      { label: 'Storage Used', value: n(team.storageUsedBytes), format: 'bytes' },
    ];
    result.recentActivity = (
      await deps.audit.search({ hospitalId: caller.hospitalId, actorUserId: caller.userId, limit: RECENT_ACTIVITY })
    ).items.map(activity);
    return result;
  }
  // Team lead, or an analyst: the team's figures and activity.
  const [policy, members, events, own, jobs] = await Promise.all([
    policyFor(caller.hospitalId, team.id, deps),
    deps.organisation.listUsers({ hospitalId: caller.hospitalId, teamId: team.id, limit: MEMBER_LIMIT }),
    deps.audit.search({ hospitalId: caller.hospitalId, limit: TEAM_ACTIVITY_WINDOW }),
    deps.audit.search({ hospitalId: caller.hospitalId, actorUserId: caller.userId, limit: RECENT_ACTIVITY }),
    Promise.all(
      ACTIVE_STATUSES.map((status) =>
        deps.datasets.list({ hospitalId: caller.hospitalId, teamId: team.id, status, limit: CURRENT_JOBS }),
      ),
    ),
  ]);
  const storage = n(team.storageUsedBytes);
  result.stats = [
    { label: 'Team Members', value: n(team.memberCount), format: 'count' },
    { label: 'Active Datasets', value: n(team.datasetCount), format: 'count' },
    { label: 'Patients Analyzed', value: n(team.patientCount), format: 'count' },
    {
      label: 'Team Storage',
      value: storage,
      format: 'bytes',
      subtitle: `${percentOf(storage, policy.storageCompute.storageCapGB)}% of allocation used`,
    },
  ];
  // Two lists that never repeat each other: Team Activity is what the team's other members did, Recent Activity the
  // caller's own (docs/screens.md#dashboard).
  const memberIds = new Set(members.items.map((u) => u.id));
  memberIds.delete(caller.userId);
  result.teamActivity = events.items
    .filter((e) => memberIds.has(e.actorUserId))
    .slice(0, TEAM_ACTIVITY)
    .map(activity);
  result.recentActivity = own.items.map(activity);
  // The processing queue and member performance stay the lead's: they name people and datasets, not figures.
  if (analyst) return result;
  const inPipeline = n(team.queuedCount) + n(team.processingCount);
  const current = jobs
    .flatMap((page) => page.items)
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
    .slice(0, CURRENT_JOBS);
  result.currentJobs = current.map(job);
  result.moreJobs = Math.max(0, inPipeline - current.length);
  result.members = members.items.map(member);
  return result;
}

const job = (d: DatasetRecord) => ({
  id: d.id,
  studyType: d.studyType,
  status: d.status,
  ownerName: d.ownerName,
  updatedAt: d.updatedAt,
});

const member = (u: UserRecord) => ({
  id: u.id,
  name: `${u.firstName} ${u.lastName}`.trim(),
  role: u.role,
  status: u.status,
  lastLogin: u.lastLogin ?? null,
});

/** Hospitals read for the system's pipeline panel beyond the table's first page (pages of 100). */
const PIPELINE_HOSPITAL_PAGES = 10;

/** The pipeline of every hospital: the sum of their counters, the table's page first, then the rest page by page. */
async function systemPipeline(
  first: { items: PipelineCounters[]; lastKey?: Record<string, string> },
  deps: DashboardDeps,
): Promise<PipelineFigures> {
  const hospitals = [...first.items];
  let startKey = first.lastKey;
  for (let pages = 0; startKey && pages < PIPELINE_HOSPITAL_PAGES; pages++) {
    const next = await deps.organisation.listHospitals({ limit: 100, startKey });
    hospitals.push(...next.items);
    startKey = next.lastKey;
  }
  return hospitals.map(pipelineFigures).reduce(
    (sum, p) => ({
      queued: sum.queued + p.queued,
      processing: sum.processing + p.processing,
      completed: sum.completed + p.completed,
      failed: sum.failed + p.failed,
      total: sum.total + p.total,
    }),
    { queued: 0, processing: 0, completed: 0, failed: 0, total: 0 },
  );
}

async function superAdminDashboard(caller: Caller, deps: DashboardDeps): Promise<Dashboard> {
  const [summary, page, events] = await Promise.all([
    deps.organisation.hospitalSummary(),
    deps.organisation.listHospitals({ limit: DASHBOARD_HOSPITAL_ROWS }),
    deps.audit.search({ hospitalId: caller.hospitalId, limit: RECENT_ACTIVITY }),
  ]);
  const pipeline = await systemPipeline(page, deps);
  const revenue = SUBSCRIPTION_PLANS.reduce(
    (sum, plan) => sum + planRevenue(plan, n(summary.activeUsersByPlan[plan])),
    0,
  );
  return {
    ...empty('SUPER_ADMIN'),
    stats: [
      { label: 'Total Hospitals', value: n(summary.hospitals), format: 'count' },
      { label: 'System Users', value: n(summary.users), format: 'count' },
      { label: 'Patients Analyzed', value: n(summary.patients), format: 'count' },
      { label: 'Monthly Revenue', value: revenue, format: 'dollars' },
      { label: 'System Storage', value: n(summary.storageUsedBytes), format: 'bytes' },
    ],
    pipeline,
    recentActivity: events.items.map(activity),
    hospitals: page.items.map((h) => {
      const status = h.status ?? 'ACTIVE';
      const users = n(h.userCount);
      return {
        id: h.id,
        name: h.name,
        location: [h.city, h.state].filter(Boolean).join(', '),
        plan: (SUBSCRIPTION_PLANS as readonly string[]).includes(h.subscriptionPlan ?? '')
          ? (h.subscriptionPlan as SubscriptionPlan)
          : null,
        users,
        patients: n(h.patientCount),
        revenue: status === 'ACTIVE' ? planRevenue(h.subscriptionPlan, users) : 0,
        status,
      };
    }),
  };
}
