import { can, type Caller } from '#shared/domain/auth/caller.ts';
import { AccessDeniedError } from '#shared/domain/errors.ts';
import type { Clock } from '#shared/domain/ports.ts';
import { counterName } from '#shared/domain/reports/counters.ts';
import type { AnalyticsPeriod, TeamAnalytics } from '#shared/schemas/api/team-analytics.ts';
import { STUDY_TYPES } from '#shared/vocabulary/datasets.ts';
import { visibleTeam } from './common.ts';
import type { OrganisationDeps, ReportCountItem } from './ports.ts';

export type TeamAnalyticsDeps = Pick<OrganisationDeps, 'directory' | 'organisation'> & { clock: Clock };

const PERIOD_DAYS: Record<AnalyticsPeriod, number> = {
  LAST_7_DAYS: 7,
  LAST_30_DAYS: 30,
  LAST_90_DAYS: 90,
  LAST_YEAR: 365,
};
const MEMBER_LIMIT = 100;
const DAY_MS = 86_400_000;
const CREATOR_PREFIX = counterName.creator('');

/** The last day (yyyy-mm-dd) of the month of `day`. */
function monthEnd(day: string): string {
  const d = new Date(`${day.slice(0, 7)}-01T00:00:00.000Z`);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).toISOString().slice(0, 10);
}

/** The first day (yyyy-mm-dd) of the month after the month of `day`. */
function nextMonth(day: string): string {
  return new Date(Date.parse(`${monthEnd(day)}T00:00:00.000Z`) + DAY_MS).toISOString().slice(0, 10);
}

/**
 * The team's report items of a period (docs/domain.md#report-counters): its day items over a period of days; over the
 * year, the day items of the first month when the period starts within it, and the month items of the months after.
 * At most 90 day items, or 31 day and 13 month items, however many datasets the team holds.
 */
async function periodItems(
  deps: TeamAnalyticsDeps,
  hospitalId: string,
  teamId: string,
  range: { from: string; to: string; monthly: boolean },
): Promise<ReportCountItem[]> {
  const list = (from: string, to: string) => deps.organisation.listReportCounts(hospitalId, teamId, from, to);
  if (!range.monthly) return list(range.from, range.to);
  if (range.from.endsWith('-01')) return list(range.from.slice(0, 7), range.to.slice(0, 7));
  const [days, months] = await Promise.all([
    list(range.from, monthEnd(range.from)),
    list(nextMonth(range.from).slice(0, 7), range.to.slice(0, 7)),
  ]);
  return [...days, ...months];
}

/**
 * A team's analytics for a period (docs/screens.md#teams-page): the datasets it created since the period's first day,
 * counted from the team's report items (docs/domain.md#report-counters), never from the datasets, and its members'
 * sign-ins. The team's lead and a hospital admin see it, and a member or guest granted VIEW_ANALYTICS
 * (docs/roles-and-permissions.md#permission-checks).
 */
export async function getTeamAnalytics(
  caller: Caller,
  teamId: string,
  period: AnalyticsPeriod,
  deps: TeamAnalyticsDeps,
): Promise<TeamAnalytics> {
  const team = await visibleTeam(caller, teamId, deps);
  const leadOrAdmin = caller.role === 'HOSPITAL_ADMIN' || caller.role === 'TEAM_LEAD';
  if (!leadOrAdmin && !can(caller, 'VIEW_ANALYTICS', { teamId: team.id })) throw new AccessDeniedError();

  const today = new Date(`${deps.clock.now().slice(0, 10)}T00:00:00.000Z`);
  const fromDate = new Date(today.getTime() - (PERIOD_DAYS[period] - 1) * DAY_MS);
  const from = fromDate.toISOString();
  const monthly = period === 'LAST_YEAR';
  const [items, members] = await Promise.all([
    periodItems(deps, caller.hospitalId, team.id, {
      from: from.slice(0, 10),
      to: today.toISOString().slice(0, 10),
      monthly,
    }),
    deps.organisation.listUsers({ hospitalId: caller.hospitalId, teamId, limit: MEMBER_LIMIT }),
  ]);

  const n = (item: ReportCountItem, name: string) => Math.max(0, item.counts[name] ?? 0);
  const sum = (name: string) => items.reduce((total, item) => total + n(item, name), 0);
  const byType = Object.fromEntries(
    STUDY_TYPES.map((t) => [t, sum(counterName.type(t))]),
  ) as TeamAnalytics['datasetsByType'];
  // Per creator, under the name they created with (the newest item's name wins).
  const byOwner = new Map<string, { name: string; datasets: number }>();
  for (const item of items)
    for (const [name, count] of Object.entries(item.counts)) {
      if (!name.startsWith(CREATOR_PREFIX) || count <= 0) continue;
      const userId = name.slice(CREATOR_PREFIX.length);
      const owner = byOwner.get(userId) ?? { name: userId, datasets: 0 };
      owner.name = item.names[counterName.ownerName(userId)] ?? owner.name;
      owner.datasets += count;
      byOwner.set(userId, owner);
    }
  const bucketOf = (iso: string) => (monthly ? iso.slice(0, 7) : iso.slice(0, 10));
  const timeline = new Map<string, number>();
  for (let t = fromDate.getTime(); t <= today.getTime(); t += DAY_MS)
    timeline.set(bucketOf(new Date(t).toISOString()), 0);
  for (const item of items) {
    const bucket = bucketOf(item.period);
    if (timeline.has(bucket)) timeline.set(bucket, timeline.get(bucket)! + n(item, counterName.studies));
  }
  return {
    teamId: team.id,
    period,
    from: from.slice(0, 10),
    totalDatasets: sum(counterName.studies),
    uploadsCompleted: sum(counterName.status('COMPLETE')),
    failed: sum(counterName.status('FAILED')),
    storageAddedBytes: sum(counterName.bytes),
    activeMembers: members.items.filter((u) => u.lastLogin !== undefined && u.lastLogin >= from).length,
    members: members.items.length,
    datasetsByType: byType,
    memberActivity: [...byOwner.values()]
      .filter((owner) => owner.datasets > 0)
      .sort((a, b) => b.datasets - a.datasets || a.name.localeCompare(b.name)),
    timeline: [...timeline].map(([bucket, count]) => ({ bucket, datasets: count })),
    // Counted from the report items, the answer holds every dataset of the period.
    truncated: false,
  };
}
